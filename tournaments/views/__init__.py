"""Floor pages: tournaments, their clock controls and blind structures; and the public TV clock."""

from datetime import timedelta

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.generic import FormView, TemplateView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin, has_role
from chips.models import ChipSetKind
from chips.selectors import chip_set_default
from tournaments import refusals
from tournaments.api import structure_export_response
from tournaments.forms import PostponeForm, StructureImportForm, TournamentForm
from tournaments.models import BlindStructure, Tournament, TournamentStatus
from tournaments.selectors import (
    level_numbers,
    structure_list,
    tournament_clock_get,
    tournament_field_get,
    tournament_list,
)
from tournaments.selectors.colour_up import colour_up_plan
from tournaments.selectors.screens import clock_labels
from tournaments.services import clock, registration, structures, tournaments
from tournaments.views.hand_for_hand import hand_for_hand_context


class TournamentListView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/tournament_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(tournaments=tournament_list(), **kwargs)


class TournamentCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/tournament_form.html"
    form_class = TournamentForm

    def perform(self, form):
        return tournaments.tournament_create(actor=self.request.user, **form.cleaned_data)

    def get_success_url(self):
        messages.success(self.request, _("Tournament %s created.") % self.result)
        return reverse("tournaments:detail", args=[self.result.pk])


class TournamentDetailView(RoleRequiredMixin, TemplateView):
    """The floor's dashboard: settings, the live clock with its controls, the levels."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/tournament_detail.html"

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        levels = list(tournament.levels.order_by("order"))
        state = tournament_clock_get(tournament=tournament)
        field = tournament_field_get(tournament=tournament)
        return super().get_context_data(
            tournament=tournament,
            levels=list(zip(levels, level_numbers(levels), strict=True)),
            has_bba=any(level.big_blind_ante for level in levels),
            state=state,
            field=field,
            refused=dashboard_refusals(tournament, state=state, field=field, level_count=len(levels)),
            postpone_form=PostponeForm(),
            clock_labels=clock_labels(),
            Status=TournamentStatus,
            **(hand_for_hand_context(tournament) if tournament.clock_started else {}),
            **kwargs,
        )


def dashboard_refusals(tournament: Tournament, *, state: dict, field: dict, level_count: int) -> dict:
    """Why each of the dashboard's actions is refused now (None: allowed), from the same checks
    the services make, on the clock as the screens show it (TRN-1, TRN-6, TRN-8)."""
    refused: dict = {}
    if tournament.status == TournamentStatus.REGISTERING:
        refused["start"] = refusals.start_refusal(tournament)
    if tournament.clock_started:
        index = state["level"]["index"] if state["level"] else 0
        left = None if state["remaining_ms"] is None else timedelta(milliseconds=state["remaining_ms"])
        refused.update(
            add_minute=refusals.time_change_refusal(left=left, seconds=60),
            remove_minute=refusals.time_change_refusal(left=left, seconds=-60),
            previous_level=refusals.level_step_refusal(index=index, level_count=level_count, step=-1),
            next_level=refusals.level_step_refusal(index=index, level_count=level_count, step=1),
        )
        if not field["registration_open"] and tournament.late_registration_level:
            refused["reopen"] = refusals.registration_reopen_refusal(tournament)
    return refused


# action slug -> (service, keyword arguments, success message)
ACTIONS = {
    "open-registration": (
        tournaments.tournament_open_registration,
        {},
        gettext_lazy("Registration is open."),
    ),
    "start": (registration.tournament_start, {}, gettext_lazy("The clock is running.")),
    "pause": (clock.clock_pause, {}, gettext_lazy("Clock paused.")),
    "resume": (clock.clock_resume, {}, gettext_lazy("Clock resumed.")),
    "add-minute": (clock.clock_add_time, {"seconds": 60}, gettext_lazy("One minute added.")),
    "remove-minute": (clock.clock_add_time, {"seconds": -60}, gettext_lazy("One minute removed.")),
    "next-level": (clock.clock_next_level, {}, gettext_lazy("Moved to the next level.")),
    "previous-level": (clock.clock_previous_level, {}, gettext_lazy("Moved back one level.")),
    "finish": (tournaments.tournament_finish, {}, gettext_lazy("Tournament finished.")),
    "cancel": (tournaments.tournament_cancel, {}, gettext_lazy("Tournament cancelled.")),
}


class TournamentActionView(RoleRequiredMixin, View):
    """POST-only status and clock actions from the dashboard; each one is audited."""

    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        tournament = get_object_or_404(Tournament, pk=pk)
        service, arguments, done = ACTIONS[action]
        try:
            service(actor=request.user, tournament=tournament, **arguments)
            messages.success(request, str(done))
        except DomainError as error:
            refuse(request, error)
        return redirect("tournaments:detail", pk=pk)


class StructureListView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/structure_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            structures=structure_list(), can_import=has_role(self.request.user, *MANAGER_ROLES), **kwargs
        )


class StructureDetailView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/structure_detail.html"

    def get_context_data(self, **kwargs):
        structure = get_object_or_404(BlindStructure, pk=kwargs["pk"])
        levels = list(structure.levels.order_by("order"))
        numbers = level_numbers(levels)
        # A structure that names no chip set plays with the house's default tournament chips.
        chip_set = structure.chip_set or chip_set_default(kind=ChipSetKind.TOURNAMENT)
        chips = list(chip_set.denominations.values_list("value", flat=True)) if chip_set else []
        plan = colour_up_plan(
            levels=[
                {
                    "kind": level.kind,
                    "number": number,
                    "small_blind_chips": level.small_blind_chips,
                    "big_blind_chips": level.big_blind_chips,
                    "ante_chips": level.ante_chips,
                }
                for level, number in zip(levels, numbers, strict=True)
            ],
            chips=chips,
        )
        return super().get_context_data(
            structure=structure,
            colour_ups=plan,
            chip_set=chip_set,
            levels=list(zip(levels, numbers, strict=True)),
            has_bba=any(level.big_blind_ante for level in levels),
            can_edit=has_role(self.request.user, *MANAGER_ROLES),
            **kwargs,
        )


class StructureExportView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES

    def get(self, request, pk: int, file_format: str):
        return structure_export_response(get_object_or_404(BlindStructure, pk=pk), file_format)


class StructureImportView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "tournaments/structure_import.html"
    form_class = StructureImportForm

    def perform(self, form):
        return structures.structure_import(
            actor=self.request.user, name=form.cleaned_data["name"], **form.cleaned_data["file"]
        )

    def get_success_url(self):
        messages.success(self.request, _("Structure %s imported.") % self.result)
        return reverse("tournaments:structure-detail", args=[self.result.pk])
