"""Bust-outs with their eliminators (TRN-10, TRN-6), the payout table and its finalising (TRN-5,
TRN-10), and deals."""

from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from poker.deals import DEAL_METHODS
from tournaments import refusals
from tournaments.forms import PayoutTableForm
from tournaments.models import EntryStatus, Tournament
from tournaments.selectors import (
    bounty_awards_list,
    bounty_totals,
    entry_list,
    tournament_rules_get,
)
from tournaments.selectors.counts import deal_stacks
from tournaments.selectors.deals import deal_calculate
from tournaments.services import payouts
from tournaments.views.common import TournamentPage, bust_from_post, moves_waiting, run_service


class BustView(TournamentPage):
    """Bust-out entry (TRN-10): tick the players out in one hand with their chips at its start,
    and (bounty tournaments, TRN-6) the entry numbers of the players who knocked each one out."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/bust.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        entries = entry_list(tournament=tournament)
        context.update(
            bust_refusal=refusals.bust_refusal(tournament),
            undo_refusal=refusals.bust_undo_refusal(tournament),
            live=entries.filter(status=EntryStatus.ACTIVE).order_by("table__number", "seat", "number"),
            finished=entries.filter(finish_place__isnull=False).order_by("finish_place"),
            bounties=bounty_totals(tournament=tournament) if tournament.bounty_cents else None,
            bounty_awards=bounty_awards_list(tournament=tournament) if tournament.bounty_cents else [],
        )
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)

        def bust():
            busted, eliminators = bust_from_post(request.POST, tournament)
            return payouts.entry_bust(
                actor=request.user, tournament=tournament, busted=busted, eliminators=eliminators
            )

        if run_service(request, bust, _("Bust-out recorded.")) is not None:
            moves_waiting(request, tournament)
        return redirect("tournaments:bust", pk=pk)


class BustUndoView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        run_service(
            request,
            lambda: payouts.bust_undo(actor=request.user, tournament=tournament),
            _("Last bust-out undone."),
        )
        return redirect("tournaments:bust", pk=pk)


class PayoutsView(TournamentPage):
    """Payouts (TRN-5, TRN-10): the table, finalising, and the deal calculators (ICM, chip chop)."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/payouts.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        rules = tournament_rules_get(tournament=tournament)
        live = list(entry_list(tournament=tournament).filter(status=EntryStatus.ACTIVE))
        method = self.request.GET.get("method", "")
        deal = None
        if method in DEAL_METHODS:
            stacks = {}
            try:
                for entry in live:
                    value = self.request.GET.get(f"stack_{entry.pk}", "").strip()
                    if value:
                        stacks[entry.pk] = parse_chips(value, field=_("Stack of entry %d") % entry.number)
                shares = deal_calculate(tournament=tournament, stacks=stacks, method=method)
                deal = [(entry, stacks[entry.pk], shares[entry.pk]) for entry in live]
            except DomainError as error:
                refuse(self.request, error)
        percentages = rules.payout_percentages
        context.update(
            rules=rules,
            live=live,
            stack_rows=_stack_rows(self.request.GET, live, deal_stacks(tournament=tournament)),
            method=method,
            deal=deal,
            finalise_refusal=_finalise_refusal(tournament, rules),
            table_form=kwargs.get("table_form")
            or PayoutTableForm(initial={"percentages": ", ".join(f"{bp / 100:g}" for bp in percentages)}),
        )
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        form = PayoutTableForm(request.POST)
        saved = (
            form.is_valid()
            and run_service(
                request,
                lambda: payouts.payout_table_set(
                    actor=request.user, tournament=tournament, percentages=form.cleaned_data["percentages"]
                ),
                _("Payout table saved."),
            )
            is not None
        )
        if saved:
            return redirect("tournaments:payouts", pk=pk)
        return self.render_to_response(self.get_context_data(pk=pk, table_form=form))


def _stack_rows(data, live: list, counts: dict) -> list[tuple]:
    """(entry, the stack in its box, his last count) for the deal calculator (TRN-10): what the
    floor typed, else the player's last count as entered at his table."""
    rows = []
    for entry in live:
        count = counts.get(entry.pk)
        typed = data.get(f"stack_{entry.pk}", "")[:12]
        if not typed and count is not None:
            typed = str(count.count)
        rows.append((entry, typed, count))
    return rows


def _finalise_refusal(tournament: Tournament, rules) -> DomainError | None:
    """Why the payouts cannot be finalised now, as the service refuses it (TRN-10)."""
    blocker = payouts.finalise_blocker(tournament, rules)
    return DomainError("cannot_finalise", blocker, rule="TRN-10") if blocker else None


class PayoutsFinaliseView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        run_service(
            request,
            lambda: payouts.payouts_finalise(actor=request.user, tournament=tournament),
            _("Payouts are final."),
        )
        return redirect("tournaments:payouts", pk=pk)


def _per_entry(data, prefix: str) -> dict[int, int]:
    """{entry id: whole number} from fields named `<prefix><entry id>`."""
    return {
        int(name.removeprefix(prefix)): int(value)
        for name, value in data.items()
        if name.startswith(prefix) and name.removeprefix(prefix).isdigit() and value.isdigit()
    }


class DealAcceptView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        amounts, stacks = _per_entry(request.POST, "share_"), _per_entry(request.POST, "stack_")
        run_service(
            request,
            lambda: payouts.deal_accept(
                actor=request.user,
                tournament=tournament,
                amounts=amounts,
                method=request.POST.get("method", ""),
                stacks=stacks or None,
            ),
            _("Deal accepted: the remaining payouts are replaced."),
        )
        return redirect("tournaments:payouts", pk=pk)
