"""The colour-up (CHP-1) for the floor: the per-table sheet, printable, and the chip race
entered seat by seat for one table."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.roles import FLOOR_ROLES
from printing.selectors import floor_printer_get
from tournaments import refusals
from tournaments.models import Table
from tournaments.selectors.colour_up import colour_up_sheet_get
from tournaments.services.colour_up import SeatRace, colour_up_race_record
from tournaments.views.common import TournamentPage

MAX_SEATS = 10


class ColourUpView(TournamentPage):
    """The sheet: the chips leaving and the chip up, and per table its players, with space to
    write the counts and cards, or the race's result once entered. `?table=<id>` shows that
    table's form to enter the race."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/colour_up.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        sheet = colour_up_sheet_get(tournament=context["tournament"])
        table = self.request.GET.get("table", "") or self.request.POST.get("table", "")
        entering = int(table) if table.isdigit() and len(table) <= 9 else None
        posted = self.request.POST
        leaving = sheet["active"]["leaving_chips"] if sheet["active"] else []
        for row in sheet["tables"]:
            if row["table"].pk != entering:
                continue
            for seat in row["seats"]:
                # What was typed comes back as typed when the race is refused.
                number = seat["seat"]
                seat["typed"] = {
                    "chips": [
                        (chip, posted.get(f"chips_{number}_{chip.value}", "")[:12]) for chip in leaving
                    ],
                    "card": posted.get(f"card_{number}", "")[:4],
                    "last": bool(posted.get(f"last_{number}")),
                    "got": bool(posted.get(f"got_{number}")),
                }
        race_refusal = refusals.colour_up_race_refusal(context["tournament"])
        context.update(
            sheet=sheet,
            entering=None if race_refusal else entering,
            race_refusal=race_refusal,
            error=kwargs.get("error"),
            floor_printer=floor_printer_get(),  # the sheets print on it too (TRN-9)
        )
        return context

    def post(self, request, pk: int):
        """The race of one table (`table`); refused, the form comes back with what was typed."""
        table_id = request.POST.get("table", "")
        table = get_object_or_404(
            Table, pk=int(table_id) if table_id.isdigit() and len(table_id) <= 9 else 0, tournament_id=pk
        )
        sheet = colour_up_sheet_get(tournament=table.tournament)
        leaving = sheet["active"]["leaving"] if sheet["active"] else []
        try:
            colour_up_race_record(
                actor=request.user, table=table, seats=seats_from_post(request.POST, leaving)
            )
        except DomainError as error:
            return self.render_to_response(self.get_context_data(pk=pk, error=error), status=400)
        messages.success(request, _("The race of %(table)s is recorded.") % {"table": table})
        return redirect("tournaments:colour-up", pk=pk)


def seats_from_post(data, leaving: list[int]) -> list[SeatRace]:
    """`seat` (the seats entered), per seat `chips_<seat>_<chip>`, `card_<seat>`, `got_<seat>`
    and `last_<seat>`. Raises DomainError on unreadable counts; nothing is written here."""
    seats = []
    for value in data.getlist("seat")[:MAX_SEATS]:
        if not value.isdigit() or len(value) > 2:
            continue
        number = int(value)
        counts = {}
        for chip in leaving:
            text = data.get(f"chips_{number}_{chip}", "").strip()
            if text:
                counts[chip] = parse_chips(text, field=_("Seat %(seat)s") % {"seat": number})
        seats.append(
            SeatRace(
                seat=number,
                leaving=counts,
                card=data.get(f"card_{number}", "").strip()[:4],
                got_chip=bool(data.get(f"got_{number}")),
                last_chips=bool(data.get(f"last_{number}")),
            )
        )
    return seats
