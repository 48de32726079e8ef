"""Tournaments API: blind structures (TRN-7), tournaments and their clock (TRN-8)."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, has_role, roles_permission
from tournaments import structure_io
from tournaments.models import (
    BlindStructure,
    GuaranteeMode,
    LevelKind,
    Tournament,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.selectors import structure_levels_data, structure_list, tournament_clock_get, tournament_list
from tournaments.services import clock, registration, structures, tournaments


def inline_choices(choices: list[tuple[str, str]]) -> type[serializers.ChoiceField]:
    """A choice field documented by a pattern of its values rather than an enum component:
    "kind" and "status" are field names other apps use for other choice sets, and the schema's
    enum components would collide (drf-spectacular extracts every inline "enum" by field name).
    """
    values = [value for value, _label in choices]

    @extend_schema_field(
        {
            "type": "string",
            "pattern": "^(" + "|".join(values) + ")$",
            "description": "One of: " + ", ".join(values),
        }
    )
    class InlineChoiceField(serializers.ChoiceField):
        def __init__(self, **kwargs):
            super().__init__(choices=choices, **kwargs)

    return InlineChoiceField


KindField = inline_choices(LevelKind.choices)
GuaranteeModeField = inline_choices(GuaranteeMode.choices)
TournamentStatusField = inline_choices(TournamentStatus.choices)


class FloorReadsManagerWrites(BasePermission):
    """Floor staff and managers read structures; only managers change them (ROL-1)."""

    message = _("Your role does not allow this (ROL-1).")

    def has_permission(self, request, view) -> bool:
        roles = FLOOR_ROLES if request.method in SAFE_METHODS else MANAGER_ROLES
        return has_role(request.user, *roles)


class LevelSerializer(serializers.Serializer):
    kind = KindField(default=LevelKind.LEVEL)
    small_blind_chips = serializers.IntegerField(min_value=0, default=0)
    big_blind_chips = serializers.IntegerField(min_value=0, default=0)
    ante_chips = serializers.IntegerField(min_value=0, default=0)
    big_blind_ante = serializers.BooleanField(default=False)
    minutes = serializers.IntegerField(min_value=0, max_value=10_000)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class StructureSerializer(serializers.ModelSerializer):
    levels = serializers.SerializerMethodField()

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "description", "levels", "created_at", "updated_at"]
        read_only_fields = fields

    @extend_schema_field(LevelSerializer(many=True))
    def get_levels(self, structure: BlindStructure) -> list[dict]:
        return structure_levels_data(structure)


class StructureSummarySerializer(serializers.ModelSerializer):
    level_count = serializers.IntegerField(read_only=True)
    break_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "description", "level_count", "break_count"]
        read_only_fields = fields


class StructureInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    levels = LevelSerializer(many=True, max_length=200)


class StructureUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    levels = LevelSerializer(many=True, max_length=200, required=False)


class StructureImportSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text="Required for CSV files."
    )
    file_format = serializers.ChoiceField(choices=["csv", "json"])
    content = serializers.CharField(max_length=structure_io.MAX_FILE_CHARS, trim_whitespace=False)


class StructureListApi(APIView):
    permission_classes = [FloorReadsManagerWrites]

    @extend_schema(responses=StructureSummarySerializer(many=True))
    def get(self, request):
        return Response(StructureSummarySerializer(structure_list(), many=True).data)

    @extend_schema(request=StructureInputSerializer, responses={201: StructureSerializer})
    def post(self, request):
        data = StructureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_create(actor=request.user, **data.validated_data)
        return Response(StructureSerializer(structure).data, status=status.HTTP_201_CREATED)


class StructureDetailApi(APIView):
    permission_classes = [FloorReadsManagerWrites]

    @extend_schema(responses=StructureSerializer)
    def get(self, request, pk: int):
        return Response(StructureSerializer(get_object_or_404(BlindStructure, pk=pk)).data)

    @extend_schema(request=StructureUpdateSerializer, responses=StructureSerializer)
    def patch(self, request, pk: int):
        data = StructureUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_update(
            actor=request.user, structure=get_object_or_404(BlindStructure, pk=pk), **data.validated_data
        )
        return Response(StructureSerializer(structure).data)


class StructureImportApi(APIView):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=StructureImportSerializer, responses={201: StructureSerializer})
    def post(self, request):
        data = StructureImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_import(actor=request.user, **data.validated_data)
        return Response(StructureSerializer(structure).data, status=status.HTTP_201_CREATED)


def structure_export_response(structure: BlindStructure, file_format: str) -> HttpResponse:
    """The structure as a downloadable CSV or JSON file (shared by the API and the pages)."""
    levels = structure_levels_data(structure)
    if file_format == "csv":
        body, content_type = structure_io.to_csv(levels), "text/csv; charset=utf-8"
    else:
        body, content_type = structure_io.to_json(structure.name, levels), "application/json"
    response = HttpResponse(body, content_type=content_type)
    filename = f"{slugify(structure.name) or 'structure'}.{file_format}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class StructureExportApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV with a header row"),
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description='{"name", "levels"}'),
        }
    )
    def get(self, request, pk: int, file_format: str):
        return structure_export_response(get_object_or_404(BlindStructure, pk=pk), file_format)


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


class TournamentInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    structure = serializers.PrimaryKeyRelatedField(queryset=BlindStructure.objects.all())
    start_at = serializers.DateTimeField()
    prize_cents = serializers.IntegerField(min_value=0)
    fee_cents = serializers.IntegerField(min_value=0)
    bounty_cents = serializers.IntegerField(min_value=0, default=0)
    starting_stack_chips = serializers.IntegerField(min_value=1)
    min_players = serializers.IntegerField(min_value=2, default=9)
    table_size = serializers.IntegerField(min_value=2, max_value=10, default=9)
    late_registration_level = serializers.IntegerField(min_value=0, default=0)
    max_reentries = serializers.IntegerField(min_value=0, default=0)
    guarantee_cents = serializers.IntegerField(min_value=0, default=0)
    guarantee_mode = GuaranteeModeField(default=GuaranteeMode.NONE)
    guarantee_player_count = serializers.IntegerField(min_value=2, default=15)
    guarantee_deadline_level = serializers.IntegerField(min_value=1, default=3)


class TournamentLevelUpdateSerializer(serializers.Serializer):
    kind = KindField(required=False)
    small_blind_chips = serializers.IntegerField(min_value=0, required=False)
    big_blind_chips = serializers.IntegerField(min_value=0, required=False)
    ante_chips = serializers.IntegerField(min_value=0, required=False)
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

    @extend_schema(responses=TournamentSummarySerializer(many=True))
    def get(self, request):
        return Response(TournamentSummarySerializer(tournament_list(), many=True).data)

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
