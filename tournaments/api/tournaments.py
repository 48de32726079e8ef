"""Tournaments API: tournaments, their levels and their clock (TRN-8), status actions."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import CentsField, ChipCountField, MoneyRequestSerializer, Pagination, paginated_response
from cardroom.roles import FLOOR_ROLES, roles_permission
from tournaments.api.common import GuaranteeModeField, KindField, TournamentStatusField
from tournaments.models import BlindStructure, GuaranteeMode, Tournament, TournamentLevel
from tournaments.selectors import tournament_clock_get, tournament_list
from tournaments.services import clock, registration, tournaments


class TournamentLevelSerializer(serializers.ModelSerializer):
    kind = KindField(read_only=True)

    class Meta:
        model = TournamentLevel
        fields = [
            "order",
            "kind",
            "small_blind_chips",
            "big_blind_chips",
            "ante_chips",
            "big_blind_ante",
            "duration_seconds",
            "note",
        ]
        read_only_fields = fields


class TournamentSerializer(serializers.ModelSerializer):
    levels = TournamentLevelSerializer(many=True, read_only=True)
    status = TournamentStatusField(read_only=True)
    guarantee_mode = GuaranteeModeField(read_only=True)
    buy_in_cents = serializers.IntegerField(read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "structure",
            "structure_name",
            "start_at",
            "status",
            "prize_cents",
            "fee_cents",
            "bounty_cents",
            "buy_in_cents",
            "starting_stack_chips",
            "min_players",
            "table_size",
            "late_registration_level",
            "max_reentries",
            "guarantee_cents",
            "guarantee_mode",
            "guarantee_player_count",
            "guarantee_deadline_level",
            "current_level_index",
            "level_started_at",
            "level_ends_at",
            "paused_remaining_ms",
            "clock_version",
            "started_at",
            "finished_at",
            "levels",
        ]
        read_only_fields = fields


class TournamentSummarySerializer(TournamentSerializer):
    class Meta(TournamentSerializer.Meta):
        fields = [name for name in TournamentSerializer.Meta.fields if name != "levels"]
        read_only_fields = fields


class TournamentInputSerializer(MoneyRequestSerializer):
    name = serializers.CharField(max_length=120)
    structure = serializers.PrimaryKeyRelatedField(queryset=BlindStructure.objects.all())
    start_at = serializers.DateTimeField()
    prize_cents = CentsField(min_value=0)
    fee_cents = CentsField(min_value=0)
    bounty_cents = CentsField(min_value=0, default=0)
    starting_stack_chips = ChipCountField(min_value=1)
    min_players = serializers.IntegerField(min_value=2, default=9)
    table_size = serializers.IntegerField(min_value=2, max_value=10, default=9)
    late_registration_level = serializers.IntegerField(min_value=0, default=0)
    max_reentries = serializers.IntegerField(min_value=0, default=0)
    guarantee_cents = CentsField(min_value=0, default=0)
    guarantee_mode = GuaranteeModeField(default=GuaranteeMode.NONE)
    guarantee_player_count = serializers.IntegerField(min_value=2, default=15)
    guarantee_deadline_level = serializers.IntegerField(min_value=1, default=3)


class TournamentLevelUpdateSerializer(MoneyRequestSerializer):
    kind = KindField(required=False)
    small_blind_chips = ChipCountField(min_value=0, required=False)
    big_blind_chips = ChipCountField(min_value=0, required=False)
    ante_chips = ChipCountField(min_value=0, required=False)
    big_blind_ante = serializers.BooleanField(required=False)
    minutes = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class AddTimeSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(help_text="Positive adds time, negative removes it.")


class ClockLevelSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True, help_text="Level number; null for a break.")
    kind = KindField()
    small_blind_chips = serializers.IntegerField()
    big_blind_chips = serializers.IntegerField()
    ante_chips = serializers.IntegerField()
    big_blind_ante = serializers.BooleanField()
    duration_ms = serializers.IntegerField()
    note = serializers.CharField()


class ClockGuaranteeSerializer(serializers.Serializer):
    amount_cents = serializers.IntegerField()
    mode = GuaranteeModeField()
    player_count = serializers.IntegerField()
    deadline_level = serializers.IntegerField()


class ClockStateSerializer(serializers.Serializer):
    """The clock as the TV screens show it (TRN-8)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = TournamentStatusField()
    status_label = serializers.CharField()
    counting = serializers.BooleanField()
    server_now = serializers.DateTimeField()
    clock_version = serializers.IntegerField()
    start_at = serializers.DateTimeField()
    level_ends_at = serializers.DateTimeField(allow_null=True)
    remaining_ms = serializers.IntegerField(allow_null=True)
    next_break_in_ms = serializers.IntegerField(allow_null=True)
    level = ClockLevelSerializer(allow_null=True)
    next_level = ClockLevelSerializer(allow_null=True)
    levels = ClockLevelSerializer(many=True)
    starting_stack_chips = serializers.IntegerField()
    guarantee = ClockGuaranteeSerializer(required=False)


class TournamentListApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    pagination_class = Pagination

    @extend_schema(responses=TournamentSummarySerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=tournament_list(), serializer_class=TournamentSummarySerializer
        )

    @extend_schema(request=TournamentInputSerializer, responses={201: TournamentSerializer})
    def post(self, request):
        data = TournamentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournaments.tournament_create(actor=request.user, **data.validated_data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(responses=TournamentSerializer)
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament.objects.prefetch_related("levels"), pk=pk)
        return Response(TournamentSerializer(tournament).data)


class TournamentLevelApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=TournamentLevelUpdateSerializer, responses=TournamentLevelSerializer)
    def patch(self, request, pk: int, order: int):
        data = TournamentLevelUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        level = tournaments.tournament_level_update(
            actor=request.user,
            tournament=get_object_or_404(Tournament, pk=pk),
            order=order,
            **data.validated_data,
        )
        return Response(TournamentLevelSerializer(level).data)


class TournamentClockApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(responses=ClockStateSerializer)
    def get(self, request, pk: int):
        return Response(tournament_clock_get(tournament=get_object_or_404(Tournament, pk=pk)))


class TournamentActionApi(APIView):
    """POST one status or clock action; answers with the clock state after it."""

    permission_classes = [roles_permission(*FLOOR_ROLES)]
    service = None

    @extend_schema(request=None, responses=ClockStateSerializer)
    def post(self, request, pk: int):
        # One moment for the action and the state it answers with.
        now = timezone.now()
        tournament = type(self).service(
            actor=request.user, tournament=get_object_or_404(Tournament, pk=pk), now=now
        )
        return Response(tournament_clock_get(tournament=tournament, now=now))


def _action(name: str, service, doc: str) -> type[TournamentActionApi]:
    view = type(name, (TournamentActionApi,), {"service": staticmethod(service), "__doc__": doc})
    return view


TournamentOpenRegistrationApi = _action(
    "TournamentOpenRegistrationApi", tournaments.tournament_open_registration, "Open registration."
)
TournamentStartApi = _action(
    "TournamentStartApi",
    registration.tournament_start,
    "Start: at least the minimum players registered (TRN-1), seats drawn (TRN-9), clock at level 1 (TRN-8).",
)
TournamentPauseApi = _action("TournamentPauseApi", clock.clock_pause, "Pause the clock (TRN-8).")
TournamentResumeApi = _action("TournamentResumeApi", clock.clock_resume, "Resume the clock (TRN-8).")
TournamentNextLevelApi = _action(
    "TournamentNextLevelApi", clock.clock_next_level, "Go to the next level with its full time (TRN-8)."
)
TournamentPreviousLevelApi = _action(
    "TournamentPreviousLevelApi", clock.clock_previous_level, "Go back one level with its full time (TRN-8)."
)
TournamentFinishApi = _action("TournamentFinishApi", tournaments.tournament_finish, "Finish the tournament.")
TournamentCancelApi = _action(
    "TournamentCancelApi",
    tournaments.tournament_cancel,
    "Cancel the tournament: every entry's money moves to refunds payable (TRN-2).",
)


class TournamentAddTimeApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=AddTimeSerializer, responses=ClockStateSerializer)
    def post(self, request, pk: int):
        data = AddTimeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        now = timezone.now()
        tournament = clock.clock_add_time(
            actor=request.user,
            tournament=get_object_or_404(Tournament, pk=pk),
            now=now,
            **data.validated_data,
        )
        return Response(tournament_clock_get(tournament=tournament, now=now))
