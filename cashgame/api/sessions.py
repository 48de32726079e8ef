"""Player sessions: the floor seats, moves and taps seat states; the cashier sells the first
buy-in and top-ups and cashes out (CSH-1..CSH-6). Money requests carry an idempotency key
(the Idempotency-Key header or the body's idempotency_key, CAG-2)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from cardroom.api import (
    CentsField,
    MoneyRequestSerializer,
    Pagination,
    money_response,
    paginated_response,
    request_key,
)
from cardroom.idempotency import replay_watch
from cashgame import selectors
from cashgame.api._common import (
    CASHIER,
    DESKS,
    FLOOR,
    JsonApiView,
    QueryBooleanField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    TableQuerySerializer,
    get_session,
    get_table,
    inline_choices,
)
from cashgame.api.tables import SeatStateField
from cashgame.models import STATE_ACTIONS, CashTable, PlayerSession, SessionEvent, SessionEventKind
from cashgame.services import sessions
from cashier.models import DESK_METHODS, PaymentMethod, Shift
from players.models import Player

MethodField = inline_choices(DESK_METHODS)
EventKindField = inline_choices(SessionEventKind.choices)
StateActionField = inline_choices([(action, action) for action in STATE_ACTIONS])
KEY_HEADER = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)


class SessionEventSerializer(serializers.ModelSerializer):
    kind = EventKindField(read_only=True)
    receipt_number = StrictIntegerField(source="transaction.receipt_number", allow_null=True, default=None)

    class Meta:
        model = SessionEvent
        fields = ["kind", "at", "amount_cents", "chips_on_table_cents", "receipt_number", "posting", "detail"]
        read_only_fields = fields


class SessionSerializer(serializers.ModelSerializer):
    state = SeatStateField(read_only=True)
    player_name = StrictCharField(source="player.full_name", read_only=True)
    table_number = StrictIntegerField(source="table.number", read_only=True)
    result_cents = StrictIntegerField(read_only=True, allow_null=True)
    seconds_played = serializers.SerializerMethodField()

    class Meta:
        model = PlayerSession
        fields = [
            "id",
            "table",
            "table_number",
            "seat",
            "player",
            "player_name",
            "state",
            "started_at",
            "ended_at",
            "buy_in_cents",
            "top_up_cents",
            "cash_out_cents",
            "last_counted_cents",
            "result_cents",
            "seconds_played",
        ]
        read_only_fields = fields

    def get_seconds_played(self, session: PlayerSession) -> int:
        return int(session.time_played().total_seconds())


class SessionDetailSerializer(SessionSerializer):
    events = SessionEventSerializer(many=True, read_only=True)

    class Meta(SessionSerializer.Meta):
        fields = [*SessionSerializer.Meta.fields, "events"]
        read_only_fields = fields


class SeatPlayerSerializer(serializers.Serializer):
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())
    seat = StrictIntegerField(min_value=1, max_value=10)


class MoneySerializer(MoneyRequestSerializer):
    shift = StrictPrimaryKeyRelatedField(queryset=Shift.objects.all())
    amount_cents = CentsField()
    idempotency_key = StrictCharField(max_length=80, required=False, default="")


class BuyInSerializer(MoneySerializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())
    seat = StrictIntegerField(
        min_value=1,
        max_value=10,
        required=False,
        allow_null=True,
        default=None,
        help_text="Unless the floor seated him.",
    )
    method = MethodField(default=PaymentMethod.CASH)


class TopUpSerializer(MoneySerializer):
    chips_on_table_cents = CentsField(
        help_text="The chips the dealer counted in front of the player (CSH-5).",
    )
    method = MethodField(default=PaymentMethod.CASH)


class CashOutSerializer(MoneySerializer):
    leaving = StrictBooleanField(default=True, help_text="Cash-out only when leaving the seat (CSH-2).")


class MoveSerializer(MoneyRequestSerializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    seat = StrictIntegerField(min_value=1, max_value=10)
    chips_cents = CentsField(required=False, allow_null=True, default=None)


class StateSerializer(serializers.Serializer):
    action = StateActionField()


class StackSerializer(MoneyRequestSerializer):
    chips_cents = CentsField()


class SessionQuerySerializer(TableQuerySerializer):
    ended = QueryBooleanField(
        required=False, help_text="true: only the ended sessions; false: only the open ones; absent: all."
    )


class SessionListApi(JsonApiView):
    permission_classes = [DESKS]
    pagination_class = Pagination

    @extend_schema(parameters=[SessionQuerySerializer], responses=SessionSerializer(many=True))
    def get(self, request):
        query = SessionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table_id = query.validated_data.get("table")
        table = get_table(table_id) if table_id is not None else None
        ended = query.validated_data.get("ended")
        return paginated_response(
            request=request,
            view=self,
            items=selectors.session_list(table=table, ended=ended),
            serializer_class=SessionSerializer,
        )


class SessionDetailApi(JsonApiView):
    permission_classes = [DESKS]

    @extend_schema(responses=SessionDetailSerializer)
    def get(self, request, pk: int):
        session = get_object_or_404(
            PlayerSession.objects.select_related("player", "table").prefetch_related("events__transaction"),
            pk=pk,
        )
        return Response(SessionDetailSerializer(session).data)


class TableSeatApi(JsonApiView):
    """The floor seats a player (from the waiting list or directly); he buys in at the cage."""

    permission_classes = [FLOOR]

    @extend_schema(request=SeatPlayerSerializer, responses={201: SessionSerializer})
    def post(self, request, pk: int):
        data = SeatPlayerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = sessions.session_seat(actor=request.user, table=get_table(pk), **data.validated_data)
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionMoneyApi(JsonApiView):
    """A cashier's money request on a player's session: its body's values go to the session's
    money service as they are, with the request's key (CAG-2); the answer is the session, 201
    when carried out now and 200 with the same body for a repeat of the key."""

    permission_classes = [CASHIER]
    input_serializer: type[MoneySerializer]
    service: staticmethod

    def run(self, request, session_pk: int | None = None) -> Response:
        data = self.input_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = {**data.validated_data, "idempotency_key": request_key(request, data.validated_data)}
        if session_pk is not None:
            values["session"] = get_session(session_pk)
        with replay_watch() as outcome:
            session = self.service(actor=request.user, **values)
        return money_response(SessionSerializer(session).data, replayed=outcome.replayed)


class BuyInApi(SessionMoneyApi):
    """The first buy-in at a table (CSH-1), posted by the cashier to the table's chips."""

    input_serializer = BuyInSerializer
    service = staticmethod(sessions.session_buy_in)

    @extend_schema(request=BuyInSerializer, parameters=[KEY_HEADER], responses={201: SessionSerializer})
    def post(self, request):
        return self.run(request)


class TopUpApi(SessionMoneyApi):
    """More chips between hands only (CSH-3), reaching half the minimum buy-in (CSH-5)."""

    input_serializer = TopUpSerializer
    service = staticmethod(sessions.session_top_up)

    @extend_schema(request=TopUpSerializer, parameters=[KEY_HEADER], responses={201: SessionSerializer})
    def post(self, request, pk: int):
        return self.run(request, session_pk=pk)


class CashOutApi(SessionMoneyApi):
    """Chips to cash when the player leaves; the session ends (CSH-2)."""

    input_serializer = CashOutSerializer
    service = staticmethod(sessions.session_cash_out)

    @extend_schema(request=CashOutSerializer, parameters=[KEY_HEADER], responses={201: SessionSerializer})
    def post(self, request, pk: int):
        return self.run(request, session_pk=pk)


class MoveApi(JsonApiView):
    """Change seat, or table (the counted chips move between the tables' accounts)."""

    permission_classes = [FLOOR]

    @extend_schema(request=MoveSerializer, responses=SessionSerializer)
    def post(self, request, pk: int):
        data = MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = sessions.session_move(actor=request.user, session=get_session(pk), **data.validated_data)
        return Response(SessionSerializer(session).data)


class StateApi(JsonApiView):
    """The dealer's seat taps (CSH-5, CSH-6): posted, button_passed, sit_out, missed_blinds, back."""

    permission_classes = [FLOOR]

    @extend_schema(request=StateSerializer, responses=SessionSerializer)
    def post(self, request, pk: int):
        data = StateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = sessions.session_state_change(
            actor=request.user, session=get_session(pk), action=data.validated_data["action"]
        )
        return Response(SessionSerializer(session).data)


class StackApi(JsonApiView):
    """The dealer's count of a stack; under one big blind the player sits out (CSH-5)."""

    permission_classes = [FLOOR]

    @extend_schema(request=StackSerializer, responses=SessionSerializer)
    def post(self, request, pk: int):
        data = StackSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = sessions.session_stack_report(
            actor=request.user, session=get_session(pk), chips_cents=data.validated_data["chips_cents"]
        )
        return Response(SessionSerializer(session).data)
