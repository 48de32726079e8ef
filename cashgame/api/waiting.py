"""Waiting lists (CSH-7) and the public board."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from cardroom.api import Pagination, paginated_response
from cashgame import selectors
from cashgame.api._common import (
    FLOOR,
    JsonApiView,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    inline_choices,
)
from cashgame.api.sessions import SessionSerializer
from cashgame.models import CashTable, Game, WaitingEntry, WaitSource, WaitStatus
from cashgame.services import waiting
from players.models import Player

WaitSourceField = inline_choices(WaitSource.choices)
WaitStatusField = inline_choices(WaitStatus.choices)


class WaitingEntrySerializer(serializers.ModelSerializer):
    source = WaitSourceField(read_only=True)
    status = WaitStatusField(read_only=True)
    player_name = StrictCharField(source="display_name", read_only=True)

    class Meta:
        model = WaitingEntry
        fields = [
            "id",
            "game",
            "player",
            "player_name",
            "nickname",
            "source",
            "status",
            "added_at",
            "called_at",
            "hold_until",
            "table",
            "seat",
            "checked_in_at",
            "missed_calls",
        ]
        read_only_fields = fields


class BoardRowSerializer(serializers.Serializer):
    position = StrictIntegerField()
    name = StrictCharField()
    status = WaitStatusField()
    table_number = StrictIntegerField(allow_null=True)
    hold_seconds = StrictIntegerField(allow_null=True)


class BoardGameSerializer(serializers.Serializer):
    game = StrictIntegerField()
    game_name = StrictCharField()
    entries = BoardRowSerializer(many=True)


def board_data() -> list[dict]:
    """The public board: no full names, no card numbers (what the room's screens show)."""
    return [
        {
            "game": block["game"].pk,
            "game_name": block["game"].name,
            "entries": [
                {
                    "position": row["position"],
                    "name": row["name"],
                    "status": row["entry"].status,
                    "table_number": row["entry"].table.number if row["entry"].table_id else None,
                    "hold_seconds": row["hold_seconds"],
                }
                for row in block["entries"]
            ],
        }
        for block in selectors.waiting_board()
    ]


class WaitingAddSerializer(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all())
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())
    source = WaitSourceField(default=WaitSource.IN_PERSON)


class CallNextSerializer(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all())
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())


class WaitingSeatSerializer(serializers.Serializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all(), required=False, allow_null=True)
    # Why the player goes ahead of others who could sit now (WTL-2): required then.
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class WaitingListApi(JsonApiView):
    permission_classes = [FLOOR]
    pagination_class = Pagination

    @extend_schema(responses=WaitingEntrySerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request,
            view=self,
            items=selectors.waiting_list(),
            serializer_class=WaitingEntrySerializer,
        )

    @extend_schema(request=WaitingAddSerializer, responses={201: WaitingEntrySerializer})
    def post(self, request):
        data = WaitingAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = waiting.waiting_add(actor=request.user, **data.validated_data)
        return Response(WaitingEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class WaitingCallNextApi(JsonApiView):
    """A seat opened: call the first player waiting for the game; he holds it 3 minutes (CSH-7)."""

    permission_classes = [FLOOR]

    @extend_schema(request=CallNextSerializer, responses=WaitingEntrySerializer)
    def post(self, request):
        data = CallNextSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            WaitingEntrySerializer(waiting.waiting_call_next(actor=request.user, **data.validated_data)).data
        )


class WaitingSeatApi(JsonApiView):
    permission_classes = [FLOOR]

    @extend_schema(request=WaitingSeatSerializer, responses={201: SessionSerializer})
    def post(self, request, pk: int):
        data = WaitingSeatSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = waiting.waiting_seat(
            actor=request.user, entry=get_object_or_404(WaitingEntry, pk=pk), **data.validated_data
        )
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class WaitingRemoveApi(JsonApiView):
    permission_classes = [FLOOR]

    @extend_schema(request=None, responses=WaitingEntrySerializer)
    def post(self, request, pk: int):
        entry = waiting.waiting_remove(actor=request.user, entry=get_object_or_404(WaitingEntry, pk=pk))
        return Response(WaitingEntrySerializer(entry).data)


class BoardApi(JsonApiView):
    """The public waiting-list board (CSH-7): read-only, no log-in, no personal data."""

    permission_classes = [AllowAny]
    authentication_classes = []
    pagination_class = Pagination

    @extend_schema(responses=BoardGameSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=board_data(), serializer_class=BoardGameSerializer
        )
