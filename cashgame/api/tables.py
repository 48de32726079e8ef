"""Games (CSH-1, RAK-3, JKP-1/2), tables, the hand log (RAK-1..RAK-4) and the dealer's seat taps."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from cardroom.api import CentsField, MoneyRequestSerializer, Pagination, paginated_response
from cashgame import selectors
from cashgame.api._common import (
    DESKS,
    FLOOR,
    DesksReadManagersWrite,
    JsonApiView,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    get_game,
    get_hand,
    get_table,
    inline_choices,
)
from cashgame.models import CashTable, Game, GameType, Hand, HandStatus, SeatState, TableStatus, VoidReason
from cashgame.services import games, hands, tables

GameTypeField = inline_choices(GameType.choices)
TableStatusField = inline_choices(TableStatus.choices)
HandStatusField = inline_choices(HandStatus.choices)
VoidReasonField = inline_choices(VoidReason.choices)
SeatStateField = inline_choices(SeatState.choices)


class GameSerializer(serializers.ModelSerializer):
    game_type = GameTypeField(read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "name",
            "game_type",
            "small_blind_cents",
            "big_blind_cents",
            "min_buy_in_cents",
            "max_buy_in_cents",
            "rake_rate_bp",
            "rake_cap_cents",
            "rake_rounding_cents",
            "jackpot_small_blind_cents",
            "jackpot_big_blind_cents",
            "jackpot_min_players",
            "jackpot_drop_cents",
            "jackpot_threshold_cents",
            "seat_hold_seconds",
            "half_bet_rule",
            "interest_threshold",
            "must_move_for",
            "active",
        ]
        read_only_fields = fields


class GameUpdateSerializer(MoneyRequestSerializer):
    name = StrictCharField(max_length=80, required=False)
    game_type = GameTypeField(required=False)
    small_blind_cents = CentsField(required=False)
    big_blind_cents = CentsField(required=False)
    min_buy_in_cents = CentsField(required=False)
    max_buy_in_cents = CentsField(required=False, allow_null=True)
    rake_rate_bp = StrictIntegerField(required=False, min_value=0, max_value=10_000)
    rake_cap_cents = CentsField(required=False)
    rake_rounding_cents = CentsField(required=False)
    jackpot_small_blind_cents = CentsField(required=False)
    jackpot_big_blind_cents = CentsField(required=False)
    jackpot_min_players = StrictIntegerField(required=False, min_value=2, max_value=10)
    jackpot_drop_cents = CentsField(required=False)
    jackpot_threshold_cents = CentsField(required=False)
    seat_hold_seconds = StrictIntegerField(required=False, min_value=10, max_value=3600)
    half_bet_rule = StrictBooleanField(
        required=False, help_text="BET-3: an all-in of at least half a full raise reopens the betting."
    )
    interest_threshold = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=50,
        help_text="WTL-2: prompt to open a table at this many waiting.",
    )
    must_move_for = StrictPrimaryKeyRelatedField(
        queryset=Game.objects.all(), required=False, allow_null=True, help_text="WTL-2: the main game fed."
    )
    active = StrictBooleanField(required=False)


class GameCreateSerializer(GameUpdateSerializer):
    name = StrictCharField(max_length=80)
    game_type = GameTypeField()
    small_blind_cents = CentsField()
    big_blind_cents = CentsField()
    min_buy_in_cents = CentsField()


class GameListApi(JsonApiView):
    permission_classes = [DesksReadManagersWrite]
    pagination_class = Pagination

    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=selectors.game_list(), serializer_class=GameSerializer
        )

    @extend_schema(request=GameCreateSerializer, responses={201: GameSerializer})
    def post(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = games.game_create(actor=request.user, **data.validated_data)
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)


class GameDetailApi(JsonApiView):
    permission_classes = [DesksReadManagersWrite]

    @extend_schema(responses=GameSerializer)
    def get(self, request, pk: int):
        return Response(GameSerializer(get_game(pk)).data)

    @extend_schema(request=GameUpdateSerializer, responses=GameSerializer)
    def patch(self, request, pk: int):
        data = GameUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = games.game_update(actor=request.user, game=get_game(pk), **data.validated_data)
        return Response(GameSerializer(game).data)


class TableSerializer(serializers.ModelSerializer):
    status = TableStatusField(read_only=True)
    game_name = StrictCharField(source="game.name", read_only=True)
    seated = StrictIntegerField(read_only=True, required=False)

    class Meta:
        model = CashTable
        fields = [
            "id",
            "number",
            "game",
            "game_name",
            "seats",
            "status",
            "hand_in_progress",
            "hands_dealt",
            "opened_at",
            "closed_at",
            "seated",
        ]
        read_only_fields = fields


class TableCreateSerializer(serializers.Serializer):
    number = StrictIntegerField(min_value=1, max_value=999)
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all())
    seats = StrictIntegerField(min_value=2, max_value=10, default=9)


class TableOpenSerializer(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all(), required=False, allow_null=True)


class SeatSessionSerializer(serializers.Serializer):
    id = StrictIntegerField()
    player = StrictIntegerField(source="player_id")
    player_name = StrictCharField(source="player.full_name")
    state = SeatStateField()
    started_at = serializers.DateTimeField()
    buy_in_cents = StrictIntegerField()
    top_up_cents = StrictIntegerField()
    last_counted_cents = StrictIntegerField(allow_null=True)


class SeatSerializer(serializers.Serializer):
    seat = StrictIntegerField()
    session = SeatSessionSerializer(allow_null=True)


@extend_schema_field(
    {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "maxItems": 2, "minItems": 2}}
)
class SeatPlayerPairsField(serializers.Field):
    """[seat, player id] pairs, as stored; a scalar field so the hand's serializer stays flat."""

    def to_representation(self, value):
        return [[seat, player] for seat, player in value]


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "amount_cents": {"type": "integer"},
                "rake_cents": {"type": "integer"},
                "drop_cents": {"type": "integer"},
            },
            "required": ["amount_cents", "rake_cents", "drop_cents"],
        },
    }
)
class PotSharesField(serializers.Field):
    """The hand's pots, main first, each with its rake and jackpot drop share (RAK-6), as stored."""

    def to_representation(self, value):
        return [
            {
                "amount_cents": pot["amount_cents"],
                "rake_cents": pot["rake_cents"],
                "drop_cents": pot["drop_cents"],
            }
            for pot in value
        ]


class HandSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(source="table_id", read_only=True)
    number = serializers.IntegerField(read_only=True)
    status = HandStatusField(read_only=True)
    dealt_in = SeatPlayerPairsField(read_only=True, help_text="[seat, player id] pairs")
    players_dealt = serializers.IntegerField(read_only=True)
    button_seat = serializers.IntegerField(read_only=True, allow_null=True)
    small_blind_cents = serializers.IntegerField(read_only=True)
    big_blind_cents = serializers.IntegerField(read_only=True)
    saw_flop = serializers.BooleanField(read_only=True)
    pot_cents = serializers.IntegerField(read_only=True, allow_null=True)
    dead_cents = serializers.IntegerField(read_only=True, help_text="POT-4: dead blinds in the main pot.")
    pots = PotSharesField(read_only=True, help_text="Once ended: each pot, main first, with its shares.")
    rake_cents = serializers.IntegerField(read_only=True)
    jackpot_drop_cents = serializers.IntegerField(read_only=True)
    void_reason = StrictCharField(read_only=True)
    posting = serializers.IntegerField(source="posting_id", read_only=True, allow_null=True)
    started_at = serializers.DateTimeField(read_only=True)
    flop_at = serializers.DateTimeField(read_only=True, allow_null=True)
    ended_at = serializers.DateTimeField(read_only=True, allow_null=True)


class TableDetailSerializer(TableSerializer):
    seat_list = SeatSerializer(many=True, read_only=True)
    current_hand = HandSerializer(read_only=True, allow_null=True)
    chips_in_play_cents = StrictIntegerField(read_only=True)

    class Meta(TableSerializer.Meta):
        fields = [*TableSerializer.Meta.fields, "chips_in_play_cents", "seat_list", "current_hand"]
        read_only_fields = fields


def table_detail_data(table: CashTable) -> dict:
    table.seat_list = selectors.table_seats(table=table)
    table.current_hand = selectors.table_current_hand(table=table)
    table.chips_in_play_cents = selectors.table_chips_in_play(table=table)
    table.seated = sum(1 for seat in table.seat_list if seat["session"] is not None)
    return TableDetailSerializer(table).data


class TableListApi(JsonApiView):
    permission_classes = [DesksReadManagersWrite]
    pagination_class = Pagination

    @extend_schema(responses=TableSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=selectors.table_list(), serializer_class=TableSerializer
        )

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def post(self, request):
        data = TableCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = tables.table_create(actor=request.user, **data.validated_data)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailApi(JsonApiView):
    permission_classes = [DESKS]

    @extend_schema(responses=TableDetailSerializer)
    def get(self, request, pk: int):
        return Response(table_detail_data(get_table(pk)))


class TableOpenApi(JsonApiView):
    permission_classes = [FLOOR]

    @extend_schema(request=TableOpenSerializer, responses=TableSerializer)
    def post(self, request, pk: int):
        data = TableOpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = tables.table_open(
            actor=request.user, table=get_table(pk), game=data.validated_data.get("game")
        )
        return Response(TableSerializer(table).data)


class TableCloseApi(JsonApiView):
    permission_classes = [FLOOR]

    @extend_schema(request=None, responses=TableSerializer)
    def post(self, request, pk: int):
        return Response(TableSerializer(tables.table_close(actor=request.user, table=get_table(pk))).data)


class HandStartSerializer(serializers.Serializer):
    seats = serializers.ListField(child=StrictIntegerField(min_value=1, max_value=10), max_length=10)
    button_seat = StrictIntegerField(min_value=1, max_value=10, required=False, allow_null=True, default=None)


class HandEndSerializer(MoneyRequestSerializer):
    pot_cents = CentsField(help_text="The final pot of the hand, all pots together, in cents.")
    side_pots_cents = serializers.ListField(
        child=CentsField(min_value=1),
        min_length=1,
        max_length=10,
        required=False,
        default=None,
        help_text="RAK-6: the pots, main pot first, adding up to pot_cents (rake and drop split over them).",
    )


class HandVoidSerializer(serializers.Serializer):
    reason = VoidReasonField()


class TableHandsApi(JsonApiView):
    """The table's hand log; POST deals a new hand (the dealer's first tap)."""

    permission_classes = [FLOOR]
    pagination_class = Pagination

    @extend_schema(responses=HandSerializer(many=True))
    def get(self, request, pk: int):
        return paginated_response(
            request=request,
            view=self,
            items=selectors.hand_list(table=get_table(pk), limit=None),
            serializer_class=HandSerializer,
        )

    @extend_schema(request=HandStartSerializer, responses={201: HandSerializer})
    def post(self, request, pk: int):
        data = HandStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = hands.hand_start(
            actor=request.user, table=CashTable(pk=pk), now=timezone.now(), **data.validated_data
        )
        return Response(HandSerializer(hand).data, status=status.HTTP_201_CREATED)


class HandFlopApi(JsonApiView):
    """The flop (or the draw) was dealt: the hand will be raked (RAK-2)."""

    permission_classes = [FLOOR]

    @extend_schema(request=None, responses=HandSerializer)
    def post(self, request, pk: int):
        return Response(HandSerializer(hands.hand_flop(actor=request.user, hand=Hand(pk=pk))).data)


class HandEndApi(JsonApiView):
    """End the hand with its pot (and side pots): rake and jackpot drop are posted and charged
    to the pots (RAK-1..RAK-4, RAK-6, JKP-1, JKP-2)."""

    permission_classes = [FLOOR]

    @extend_schema(request=HandEndSerializer, responses=HandSerializer)
    def post(self, request, pk: int):
        data = HandEndSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = hands.hand_end(
            actor=request.user,
            hand=Hand(pk=pk),
            pot_cents=data.validated_data["pot_cents"],
            side_pots_cents=data.validated_data["side_pots_cents"],
        )
        return Response(HandSerializer(hand).data)


class HandVoidApi(JsonApiView):
    """Void the hand in progress: misdeal (FLR-1) or duplicate card (FLR-2); no rake (RAK-4)."""

    permission_classes = [FLOOR]

    @extend_schema(request=HandVoidSerializer, responses=HandSerializer)
    def post(self, request, pk: int):
        data = HandVoidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = hands.hand_void(actor=request.user, hand=get_hand(pk), reason=data.validated_data["reason"])
        return Response(HandSerializer(hand).data)
