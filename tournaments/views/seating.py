"""The seating chart (TRN-9) drawn as tables: tap a seat for its panel (bust-out, button), the
seat draw, the final table, the button by cards (HND-2) or by seat, and the move slips."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from printing.selectors import floor_printer_get, jobs_failed
from tournaments import refusals
from tournaments.models import MoveSlip, Table, Tournament
from tournaments.selectors.floor import pending_moves, seat_panel, seating_tables, table_open_moves
from tournaments.services import floor, payouts, seating
from tournaments.views.common import TournamentPage, bust_from_post, moves_waiting, run_service
from tournaments.views.hand_for_hand import hand_for_hand_context


def _ids(values: list[str]) -> list[int]:
    return [int(value) for value in values[:20] if value.isdigit() and len(value) <= 9]


class SeatingView(TournamentPage):
    """The seating chart (TRN-9): the tables drawn with their seats; a tap on a seat opens its
    panel (`?seat=<entry id>`, and `hand=` for the others out in the same hand). Through htmx
    only the panel is sent back."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/seating.html"

    def get(self, request, *args, **kwargs):
        context = self.get_context_data(**kwargs)
        if request.htmx and "seat" in request.GET:
            return TemplateResponse(request, "tournaments/_seat_panel.html", context)
        return self.render_to_response(context)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        seat = self.request.GET.get("seat", "")
        panel = None
        if seat.isdigit() and len(seat) <= 9:
            panel = seat_panel(
                tournament=tournament, entry_id=int(seat), hand=_ids(self.request.GET.getlist("hand"))
            )
        if "seat" in self.request.GET and self.request.htmx:
            context.update(panel=panel, collecting="more" in self.request.GET or "hand" in self.request.GET)
            return context
        moves = pending_moves(tournament=tournament)
        chart = seating_tables(tournament=tournament, moves=moves)
        has_tables = bool(chart) or tournament.tables.exists()
        # Only what the rules allow now is offered; what they refuse shows greyed out with why.
        opens_table = (
            has_tables
            and context["field"]["registration_open"]
            and refusals.table_open_refusal(tournament) is None
        )
        context.update(
            chart=chart,
            moves=moves,
            has_tables=has_tables,
            draw_refusal=None if has_tables else refusals.seat_draw_refusal(tournament),
            final_table=len(chart) == 1 and tournament.clock_started,
            table_open_moves=table_open_moves(tournament=tournament) if opens_table else None,
            panel=panel,
            collecting="more" in self.request.GET or "hand" in self.request.GET,
        )
        if tournament.clock_started and has_tables:
            context.update(hand_for_hand_context(tournament))
        # TRN-9: the floor desk's printer, and its slips that did not come out ("print again").
        floor_printer = floor_printer_get()
        context.update(desk_printer=floor_printer, print_failures=jobs_failed(printer=floor_printer))
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
        elif action == "final-table":
            run_service(
                request,
                lambda: seating.seating_final_table_draw(actor=request.user, tournament=tournament),
                _("Final table drawn; set the button next."),
            )
        elif action == "open-table":
            slips = run_service(
                request,
                lambda: seating.seating_table_open(actor=request.user, tournament=tournament),
                _("Table opened."),
            )
            if slips is not None:
                messages.info(
                    request,
                    ngettext("%(n)d player moves to it.", "%(n)d players move to it.", len(slips))
                    % {"n": len(slips)},
                )
        elif action == "confirm-moves":
            run_service(
                request,
                lambda: floor.move_slips_confirm_all(actor=request.user, tournament=tournament),
                _("Every move is confirmed."),
            )
        else:
            run_service(
                request,
                lambda: floor.registration_reopen(actor=request.user, tournament=tournament),
                _("Late registration is open again."),
            )
            return redirect("tournaments:detail", pk=pk)
        return redirect("tournaments:seating", pk=pk)


class SeatBustView(RoleRequiredMixin, View):
    """The bust-out from a seat's panel (TRN-10): chips only when two or more are out in the hand,
    the eliminators when the tournament has bounties (TRN-6). Back to the chart either way."""

    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)

        def bust():
            busted, eliminators = bust_from_post(request.POST, tournament)
            return payouts.entry_bust(
                actor=request.user, tournament=tournament, busted=busted, eliminators=eliminators
            )

        if run_service(request, bust, _("Bust-out recorded.")) is not None:
            moves_waiting(request, tournament)
        return redirect("tournaments:seating", pk=pk)


class ButtonDrawView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, table_id: int):
        table = get_object_or_404(Table, pk=table_id, tournament_id=pk)
        seat = request.POST.get("seat", "")
        if seat:
            # "Button at seat N": the floor says where the button is.
            run_service(
                request,
                lambda: floor.table_button_set(
                    actor=request.user, table=table, seat=int(seat) if seat.isdigit() and len(seat) < 3 else 0
                ),
                _("Button at seat %s.") % seat[:2],
            )
            return redirect("tournaments:seating", pk=pk)
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
