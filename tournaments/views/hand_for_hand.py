"""Hand-for-hand (SER-3) on the floor's pages: call it on or off, each table's "hand done", and
the next hand. Each POST calls one service and goes back to the page it came from."""

from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from tournaments import refusals
from tournaments.models import Table, Tournament
from tournaments.selectors import tournament_rules_get
from tournaments.selectors.hand_for_hand import hand_for_hand_get
from tournaments.services import hand_for_hand
from tournaments.views.common import run_service

PAGES = {"seating": "tournaments:seating", "detail": "tournaments:detail"}


def hand_for_hand_context(tournament: Tournament) -> dict:
    """Hand-for-hand's state and why each of its buttons is refused now (None: allowed), from the
    same checks the services make, for the panel on the dashboard and the seating chart."""
    rules = tournament_rules_get(tournament=tournament)
    state = hand_for_hand_get(tournament=tournament, rules=rules)
    reported = {table["number"] for table in state["tables"] if table["done"]}
    tables = {
        table.pk: table for table in tournament.tables.filter(pk__in=[t["pk"] for t in state["tables"]])
    }
    for row in state["tables"]:
        row["refusal"] = refusals.hand_done_refusal(rules, table=tables[row["pk"]], reported=reported)
        row["why_id"] = f"why-no-done-{row['number']}"
    return {
        "h4h": state,
        "h4h_refused": {
            "start": refusals.hand_for_hand_start_refusal(tournament, rules),
            "next": refusals.next_hand_refusal(rules, waiting=state["waiting"]),
        },
    }


def _back(request, pk: int):
    return redirect(PAGES.get(request.POST.get("back", ""), "tournaments:detail"), pk=pk)


class HandForHandActionView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        tournament = get_object_or_404(Tournament, pk=pk)
        service, done = {
            "start": (
                hand_for_hand.hand_for_hand_start,
                _("Hand for hand: every table plays one hand at a time."),
            ),
            "stop": (hand_for_hand.hand_for_hand_stop, _("Hand for hand is over.")),
            "next": (
                hand_for_hand.hand_for_hand_next_hand,
                _("Next hand: deal at every table; the clock runs."),
            ),
        }[action]
        run_service(request, lambda: service(actor=request.user, tournament=tournament), done)
        return _back(request, pk)


class HandDoneView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, table_id: int):
        table = get_object_or_404(Table, pk=table_id, tournament_id=pk)
        run_service(
            request,
            lambda: hand_for_hand.hand_for_hand_table_done(
                actor=request.user, tournament=table.tournament, table_id=table.pk
            ),
            _("Table %d: hand done.") % table.number,
        )
        return _back(request, pk)
