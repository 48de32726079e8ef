"""The seating chart (TRN-9): the draw, the final table, the button draw (HND-2), move slips."""

from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from tournaments.models import MoveSlip, Table, Tournament
from tournaments.selectors import pending_move_slips, seating_chart
from tournaments.services import seating
from tournaments.views.common import TournamentPage, run_service


class SeatingView(TournamentPage):
    """The seating chart (TRN-9): tables and seats, move slips to confirm, the button draw."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/seating.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        context.update(
            chart=seating_chart(tournament=tournament),
            slips=pending_move_slips(tournament=tournament),
            has_tables=tournament.tables.exists(),
        )
        return context


class SeatingActionView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        tournament = get_object_or_404(Tournament, pk=pk)
        if action == "draw":
            run_service(
                request,
                lambda: seating.seating_draw(actor=request.user, tournament=tournament),
                _("Seats drawn."),
            )
        else:
            run_service(
                request,
                lambda: seating.seating_final_table_draw(actor=request.user, tournament=tournament),
                _("Final table drawn; draw for the button next."),
            )
        return redirect("tournaments:seating", pk=pk)


class ButtonDrawView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, table_id: int):
        table = get_object_or_404(Table, pk=table_id, tournament_id=pk)
        cards = {
            int(name.removeprefix("card_")): value.strip()
            for name, value in request.POST.items()
            if name.startswith("card_") and name.removeprefix("card_").isdigit() and value.strip()
        }
        run_service(
            request,
            lambda: seating.table_button_draw(actor=request.user, table=table, cards=cards),
            _("Button drawn."),
        )
        return redirect("tournaments:seating", pk=pk)


class SlipConfirmView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, slip_id: int):
        slip = get_object_or_404(MoveSlip, pk=slip_id, tournament_id=pk)
        run_service(
            request, lambda: seating.move_slip_confirm(actor=request.user, slip=slip), _("Move confirmed.")
        )
        return redirect("tournaments:seating", pk=pk)
