"""Drop-box counts (RAK-5), bad-beat jackpot claims and payouts (JKP-3), waiting lists (CSH-7),
the rule book and the rulings log (FLR-1..FLR-5), and the floor's calculators (POT, HND, BET)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, roles_permission
from cashgame import calculators, selectors
from cashgame.api._common import (
    CASHIER,
    FLOOR,
    DesksReadFloorWrites,
    JsonApiView,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    TableQuerySerializer,
    idempotency_key,
    inline_choices,
    query_table,
)
from cashgame.api.sessions import KEY_HEADER, SessionSerializer
from cashgame.models import (
    CashTable,
    DropBoxCount,
    Game,
    Hand,
    JackpotClaim,
    JackpotShare,
    Ruling,
    ShareRole,
    WaitingEntry,
    WaitSource,
    WaitStatus,
)
from cashgame.rulebook import SITUATIONS
from cashgame.services import dropbox, jackpot, rulings, waiting
from cashier.models import Shift
from players.models import Player
from poker.betting import Limit

DROP_COUNT = roles_permission(*CASHIER_ROLES, *MANAGER_ROLES)
ShareRoleField = inline_choices(ShareRole.choices)
WaitSourceField = inline_choices(WaitSource.choices)
WaitStatusField = inline_choices(WaitStatus.choices)
LimitField = inline_choices([(limit.value, limit.value) for limit in Limit])


class DropCountSerializer(serializers.ModelSerializer):
    table_number = StrictIntegerField(source="table.number", read_only=True)
    counted_by = StrictCharField(source="counted_by.get_username", read_only=True)

    class Meta:
        model = DropBoxCount
        fields = [
            "id",
            "table",
            "table_number",
            "period_start",
            "period_end",
            "counted_cents",
            "expected_cents",
            "variance_cents",
            "hands",
            "counted_by",
            "counted_at",
            "note",
        ]
        read_only_fields = fields


class DropCountInputSerializer(serializers.Serializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    period_start = serializers.DateTimeField()
    period_end = serializers.DateTimeField()
    counted_cents = StrictIntegerField(min_value=0, max_value=10**12)
    note = StrictCharField(max_length=200, required=False, allow_blank=True, default="")


class DropCountListApi(JsonApiView):
    """RAK-5: counted drop boxes against the rake of the hand log, with the variance."""

    permission_classes = [DROP_COUNT]

    @extend_schema(responses=DropCountSerializer(many=True))
    def get(self, request):
        return Response(DropCountSerializer(selectors.dropbox_count_list()[:200], many=True).data)

    @extend_schema(request=DropCountInputSerializer, responses={201: DropCountSerializer})
    def post(self, request):
        data = DropCountInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = dropbox.dropbox_count_record(actor=request.user, **data.validated_data)
        return Response(DropCountSerializer(count).data, status=status.HTTP_201_CREATED)


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


class SharePaySerializer(serializers.Serializer):
    shift = StrictPrimaryKeyRelatedField(queryset=Shift.objects.all())
    idempotency_key = StrictCharField(max_length=80, required=False, default="")


class ClaimListApi(JsonApiView):
    """JKP-3: the floor enters the cards; a claim that does not qualify is refused with the reason."""

    permission_classes = [DesksReadFloorWrites]

    @extend_schema(responses=ClaimSerializer(many=True))
    def get(self, request):
        return Response(ClaimSerializer(selectors.jackpot_claim_list()[:100], many=True).data)

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
        share = jackpot.jackpot_share_pay(
            actor=request.user,
            shift=data.validated_data["shift"],
            share=get_object_or_404(JackpotShare, pk=pk),
            idempotency_key=idempotency_key(request, data.validated_data),
        )
        return Response(ShareSerializer(share).data)


class WaitingEntrySerializer(serializers.ModelSerializer):
    source = WaitSourceField(read_only=True)
    status = WaitStatusField(read_only=True)
    player_name = StrictCharField(source="player.full_name", read_only=True)

    class Meta:
        model = WaitingEntry
        fields = [
            "id",
            "game",
            "player",
            "player_name",
            "source",
            "status",
            "added_at",
            "called_at",
            "hold_until",
            "table",
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


class WaitingListApi(JsonApiView):
    permission_classes = [FLOOR]

    @extend_schema(responses=WaitingEntrySerializer(many=True))
    def get(self, request):
        entries = WaitingEntry.objects.filter(status__in=["waiting", "called"]).select_related("player")
        return Response(WaitingEntrySerializer(entries.order_by("game", "added_at", "pk"), many=True).data)

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

    @extend_schema(responses=BoardGameSerializer(many=True))
    def get(self, request):
        return Response(BoardGameSerializer(board_data(), many=True).data)


class SituationSerializer(serializers.Serializer):
    key = StrictCharField()
    rule = StrictCharField()
    title = StrictCharField()
    consequence = StrictCharField()
    consequence_text = StrictCharField()
    voids_hand = serializers.BooleanField()


class RulingSerializer(serializers.ModelSerializer):
    staff = StrictCharField(source="staff.get_username", read_only=True)

    class Meta:
        model = Ruling
        fields = ["id", "table", "hand", "situation", "rule", "decision", "staff", "at"]
        read_only_fields = fields


class RulingInputSerializer(serializers.Serializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    hand = StrictPrimaryKeyRelatedField(queryset=Hand.objects.all(), required=False, allow_null=True)
    situation = serializers.ChoiceField(choices=[situation.key for situation in SITUATIONS])
    decision = StrictCharField(max_length=2000)


class RuleBookApi(JsonApiView):
    """FLR-1..FLR-4: the dealing-error situations and what each does to the logged hand."""

    permission_classes = [FLOOR]

    @extend_schema(responses=SituationSerializer(many=True))
    def get(self, request):
        return Response(SituationSerializer(SITUATIONS, many=True).data)


class RulingListApi(JsonApiView):
    """FLR-5: every ruling logged; a misdeal or duplicate-card ruling voids the hand in progress."""

    permission_classes = [FLOOR]

    @extend_schema(parameters=[TableQuerySerializer], responses=RulingSerializer(many=True))
    def get(self, request):
        table = query_table(request)
        return Response(RulingSerializer(selectors.ruling_list(table=table)[:200], many=True).data)

    @extend_schema(request=RulingInputSerializer, responses={201: RulingSerializer})
    def post(self, request):
        data = RulingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = rulings.ruling_record(actor=request.user, **data.validated_data)
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)


class PotPlayerSerializer(serializers.Serializer):
    name = StrictCharField(max_length=40)
    amount = StrictIntegerField(min_value=0, max_value=10**12)
    folded = StrictBooleanField(default=False)


class SidePotInputSerializer(serializers.Serializer):
    players = PotPlayerSerializer(
        many=True, min_length=1, max_length=10, help_text="Seat order from the button's left."
    )
    ranking = serializers.ListField(
        child=serializers.ListField(child=StrictCharField(max_length=40)),
        required=False,
        default=list,
        help_text='Showdown result, best first, ties grouped: [["A", "C"], ["B"]].',
    )
    rake = StrictIntegerField(min_value=0, default=0)
    chip = StrictIntegerField(min_value=1, default=1)


class PotSerializer(serializers.Serializer):
    amount = StrictIntegerField()
    eligible = serializers.ListField(child=StrictCharField())


class SidePotResultSerializer(serializers.Serializer):
    pots = PotSerializer(many=True)
    returned = serializers.DictField(child=StrictIntegerField())
    total = StrictIntegerField()
    awards = serializers.DictField(child=StrictIntegerField(), required=False)
    pot_winners = serializers.ListField(child=serializers.ListField(child=StrictCharField()), required=False)
    rake = StrictIntegerField(required=False)


class ShowdownInputSerializer(serializers.Serializer):
    players = serializers.ListField(child=StrictCharField(max_length=40), min_length=1, max_length=10)
    last_aggressor = StrictCharField(max_length=40, required=False, allow_blank=True, default="")


class ShowdownResultSerializer(serializers.Serializer):
    order = serializers.ListField(child=StrictCharField())


class BestHandInputSerializer(serializers.Serializer):
    hole = StrictCharField(max_length=12)
    board = StrictCharField(max_length=30)


class BestHandResultSerializer(serializers.Serializer):
    category = StrictCharField()
    cards = serializers.ListField(child=StrictCharField())
    strength = StrictIntegerField()


class BetActionSerializer(serializers.Serializer):
    had = StrictIntegerField(min_value=0, default=0)
    to = StrictIntegerField(min_value=0)


class RaiseInputSerializer(serializers.Serializer):
    limit = LimitField()
    street = StrictIntegerField(min_value=0, max_value=3, help_text="0 pre-flop, 1 flop, 2 turn, 3 river")
    big_blind = StrictIntegerField(min_value=1)
    small_blind = StrictIntegerField(min_value=0, default=0)
    straddle = StrictBooleanField(default=False)
    actions = BetActionSerializer(many=True, required=False, default=list, max_length=50)
    pot = StrictIntegerField(min_value=0, default=0, help_text="Post-flop: the pot before this round.")
    player_bet = StrictIntegerField(min_value=0, default=0)
    player_stack = StrictIntegerField(min_value=0)
    bet_faced_when_acted = StrictIntegerField(min_value=0, required=False, allow_null=True, default=None)


class RaiseResultSerializer(serializers.Serializer):
    current_bet = StrictIntegerField()
    to_call = StrictIntegerField()
    pot = StrictIntegerField()
    can_raise = serializers.BooleanField()
    min_raise_to = StrictIntegerField(allow_null=True)
    max_raise_to = StrictIntegerField(allow_null=True)
    raises = StrictIntegerField()
    reopened = serializers.BooleanField(required=False)


def _calculator(input_class, result_class, compute, doc: str) -> type[JsonApiView]:
    class CalculatorApi(JsonApiView):
        permission_classes = [FLOOR]

        @extend_schema(request=input_class, responses=result_class)
        def post(self, request):
            data = input_class(data=request.data)
            data.is_valid(raise_exception=True)
            return Response(result_class(compute(data.validated_data)).data)

    CalculatorApi.__doc__ = doc
    CalculatorApi.__name__ = CalculatorApi.__qualname__ = input_class.__name__.replace(
        "InputSerializer", "Api"
    )
    return CalculatorApi


SidePotApi = _calculator(
    SidePotInputSerializer,
    SidePotResultSerializer,
    lambda values: calculators.side_pots(**values),
    "Main and side pots from each player's total, and who wins what (POT-1, POT-2).",
)
ShowdownApi = _calculator(
    ShowdownInputSerializer,
    ShowdownResultSerializer,
    lambda values: {"order": calculators.showdown(**values)},
    "Who shows first (POT-3).",
)
BestHandApi = _calculator(
    BestHandInputSerializer,
    BestHandResultSerializer,
    lambda values: calculators.best_hand(**values),
    "The best five of seven cards (HND-1).",
)
RaiseApi = _calculator(
    RaiseInputSerializer,
    RaiseResultSerializer,
    lambda values: calculators.raise_limits(**values),
    "Minimum and maximum raise, with the full bet rule and the straddle (BET-2..BET-4).",
)
