"""The floor's registration desk (TRN-3, TRN-6): who is registered and present, the rebuy and
add-on rules, postponing the start (TRN-1)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from tournaments.forms import PostponeForm, RulesForm
from tournaments.models import Entry, Tournament, TournamentStatus
from tournaments.selectors import entry_list, tournament_rules_get
from tournaments.services import registration
from tournaments.views.common import FLOOR_AND_CASHIER, TournamentPage, run_service


class EntryDeskView(TournamentPage):
    """The floor's registration desk: who is registered, present or not, and the rules."""

    allowed_roles = FLOOR_AND_CASHIER
    template_name = "tournaments/entries.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        rules = (
            tournament_rules_get(tournament=tournament) if has_role(self.request.user, *FLOOR_ROLES) else None
        )
        editable = tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        initial = {name: getattr(rules, name) for name in registration.RULE_FIELDS} if rules else {}
        context.update(
            entries=entry_list(tournament=tournament),
            is_floor=has_role(self.request.user, *FLOOR_ROLES),
            is_cashier=has_role(self.request.user, *CASHIER_ROLES),
            rules_form=RulesForm(initial=initial) if rules and editable else None,
            postpone_form=PostponeForm() if editable else None,
        )
        return context


class EntryPresentView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, entry_id: int):
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        present = request.POST.get("present") == "1"
        run_service(
            request,
            lambda: registration.entry_mark_present(actor=request.user, entry=entry, present=present),
            _("Entry %(n)d marked %(state)s.")
            % {"n": entry.number, "state": _("present") if present else _("absent")},
        )
        return redirect("tournaments:entries", pk=pk)


class RulesView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        form = RulesForm(request.POST)
        if not form.is_valid():
            messages.error(request, "; ".join(str(e) for errors in form.errors.values() for e in errors))
            return redirect("tournaments:entries", pk=pk)
        tournament = get_object_or_404(Tournament, pk=pk)
        run_service(
            request,
            lambda: registration.tournament_rules_update(
                actor=request.user, tournament=tournament, **form.cleaned_data
            ),
            _("Rebuy and add-on rules saved."),
        )
        return redirect("tournaments:entries", pk=pk)


class PostponeView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        form = PostponeForm(request.POST)
        tournament = get_object_or_404(Tournament, pk=pk)
        if not form.is_valid():
            messages.error(request, _("Give the new start time."))
        else:
            run_service(
                request,
                lambda: registration.tournament_postpone(
                    actor=request.user, tournament=tournament, start_at=form.cleaned_data["start_at"]
                ),
                _("Start postponed."),
            )
        return redirect("tournaments:detail", pk=pk)
