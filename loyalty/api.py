"""Loyalty API (LOY-1): a player's points and tier, his history (paged), and a redemption with
an `Idempotency-Key` (a repeat answers the first redemption and spends nothing twice)."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import CentsField, MoneyRequestSerializer, Pagination, money_response, paginated_response
from cardroom.idempotency import replay_watch
from cardroom.parsers import JSONParser
from cardroom.roles import PLAYER_DESK_ROLES, roles_permission
from loyalty import selectors, services
from loyalty.models import Movement
from players.models import Player
from tournaments.models import Tournament

DESK = roles_permission(*PLAYER_DESK_ROLES)


class MovementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Movement
        fields = [
            "id",
            "kind",
            "at",
            "points",
            "value_cents",
            "balance_after",
            "description",
            "ticket",
            "posting",
        ]


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField()
    value_cents = serializers.IntegerField()
    period_points = serializers.IntegerField()
    tier = serializers.CharField(allow_null=True)
    next_tier = serializers.CharField(allow_null=True)
    to_next_tier = serializers.IntegerField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)


class StandingApi(APIView):
    permission_classes = [DESK]

    @extend_schema(responses=StandingSerializer)
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        standing = selectors.standing_get(player_id=player.pk, now=timezone.now())
        return Response(
            StandingSerializer(
                {
                    "player": player.pk,
                    "points": standing.points,
                    "value_cents": standing.value_cents,
                    "period_points": standing.period_points,
                    "tier": standing.tier.name if standing.tier else None,
                    "next_tier": standing.next_tier.name if standing.next_tier else None,
                    "to_next_tier": standing.to_next_tier,
                    "expires_at": standing.expires_at,
                }
            ).data
        )


class HistoryApi(APIView):
    permission_classes = [DESK]
    pagination_class = Pagination

    @extend_schema(responses=MovementSerializer(many=True))
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        return paginated_response(
            request=request,
            view=self,
            items=selectors.movements_list(player_id=player.pk),
            serializer_class=MovementSerializer,
        )


class RedemptionSerializer(MoneyRequestSerializer):
    voucher_cents = CentsField(required=False, allow_null=True, default=None)
    tournament = serializers.IntegerField(required=False, allow_null=True, default=None)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class RedemptionApi(APIView):
    permission_classes = [DESK]
    parser_classes = [JSONParser]

    @extend_schema(
        request=RedemptionSerializer,
        responses={201: MovementSerializer, 200: MovementSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request, pk: int):
        # The body is read before the player is looked up, so a malformed body gets its own 400
        # (a 1,000-deep JSON, a NUL) whichever player the address names.
        data = RedemptionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = get_object_or_404(Player, pk=pk)
        tournament_id = data.validated_data["tournament"]
        tournament = get_object_or_404(Tournament, pk=tournament_id) if tournament_id is not None else None
        with replay_watch() as outcome:
            movement = services.loyalty_redeem(
                actor=request.user,
                player=player,
                voucher_value=data.validated_data["voucher_cents"],
                tournament=tournament,
                note=data.validated_data["note"],
                idempotency_key=request.headers.get("Idempotency-Key") or None,
            )
        return money_response(MovementSerializer(movement).data, replayed=outcome.replayed)
