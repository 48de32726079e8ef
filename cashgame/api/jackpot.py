"""Bad-beat jackpot claims and the cashier's payout of the shares (JKP-3)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from cardroom.api import MoneyRequestSerializer, Pagination, money_response, paginated_response, request_key
from cardroom.idempotency import replay_watch
from cashgame import selectors
from cashgame.api._common import (
    CASHIER,
    DesksReadFloorWrites,
    JsonApiView,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    inline_choices,
)
from cashgame.api.sessions import KEY_HEADER
from cashgame.models import Hand, JackpotClaim, JackpotShare, ShareRole
from cashgame.services import jackpot
from cashier.models import Shift

ShareRoleField = inline_choices(ShareRole.choices)


class ShareSerializer(serializers.ModelSerializer):
    role = ShareRoleField(read_only=True)
    player_name = StrictCharField(source="player.full_name", read_only=True)
    receipt_number = StrictIntegerField(source="transaction.receipt_number", allow_null=True, default=None)

    class Meta:
        model = JackpotShare
        fields = ["id", "claim", "player", "player_name", "role", "amount_cents", "paid_at", "receipt_number"]
        read_only_fields = fields


class ClaimSerializer(serializers.ModelSerializer):
    shares = ShareSerializer(many=True, read_only=True)

    class Meta:
        model = JackpotClaim
        fields = [
            "id",
            "hand",
            "loser_seat",
            "winner_seat",
            "loser_cards",
            "winner_cards",
            "board",
            "loser_hand",
            "winner_hand",
            "fund_cents",
            "created_at",
            "shares",
        ]
        read_only_fields = fields


class ClaimInputSerializer(serializers.Serializer):
    hand = StrictPrimaryKeyRelatedField(queryset=Hand.objects.all())
    loser_seat = StrictIntegerField(min_value=1, max_value=10)
    winner_seat = StrictIntegerField(min_value=1, max_value=10)
    loser_cards = StrictCharField(max_length=12, help_text='e.g. "8s8h"')
    winner_cards = StrictCharField(max_length=12)
    board = StrictCharField(max_length=30, help_text='five cards, e.g. "8d 8c 9c Tc Jc"')


class SharePaySerializer(MoneyRequestSerializer):
    shift = StrictPrimaryKeyRelatedField(queryset=Shift.objects.all())
    idempotency_key = StrictCharField(max_length=80, required=False, default="")


class ClaimListApi(JsonApiView):
    """JKP-3: the floor enters the cards; a claim that does not qualify is refused with the reason."""

    permission_classes = [DesksReadFloorWrites]
    pagination_class = Pagination

    @extend_schema(responses=ClaimSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=selectors.jackpot_claim_list(), serializer_class=ClaimSerializer
        )

    @extend_schema(request=ClaimInputSerializer, responses={201: ClaimSerializer})
    def post(self, request):
        data = ClaimInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        claim = jackpot.jackpot_claim_create(actor=request.user, **data.validated_data)
        return Response(ClaimSerializer(claim).data, status=status.HTTP_201_CREATED)


class SharePayApi(JsonApiView):
    """The cashier pays one share in cash from the jackpot fund."""

    permission_classes = [CASHIER]

    @extend_schema(request=SharePaySerializer, parameters=[KEY_HEADER], responses=ShareSerializer)
    def post(self, request, pk: int):
        data = SharePaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request_key(request, data.validated_data)
        with replay_watch() as outcome:
            share = jackpot.jackpot_share_pay(
                actor=request.user,
                shift=data.validated_data["shift"],
                share=get_object_or_404(JackpotShare, pk=pk),
                idempotency_key=key,
            )
        return money_response(ShareSerializer(share).data, replayed=outcome.replayed)
