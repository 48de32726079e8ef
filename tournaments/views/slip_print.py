"""Move slips and seat tickets (TRN-9) and chip-race sheets (CHP-1) on the floor desk's thermal
printer: one slip a player, cut apart, each naming the player by entry number and nickname, from
table and seat to table and seat. The browser's printing stays beside it for a floor without a
printer."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View

from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cardroom.selectors import venue_zone
from printing.documents import Document, Line
from printing.models import JobKind
from printing.selectors import floor_printer_get
from printing.services import Printout, print_batch
from tournaments.models import Tournament
from tournaments.selectors.colour_up import colour_up_sheet_get
from tournaments.selectors.floor import pending_moves, seating_tables


def move_slip_document(*, tournament: Tournament, move: dict) -> Document:
    slip = move["slip"]
    where = _("Table %(table)s, seat %(seat)s")
    title = _("Move slip") + f" #{slip.pk}"
    return Document(
        title=title,
        lines=[
            Line(text=tournament.name, heading=True),
            Line(text=title, bold=True),
            Line(text=date_format(timezone.localtime(slip.created_at, venue_zone()), "Y-m-d H:i")),
            Line(rule=True),
            Line(text=f"#{slip.entry.number} {move['label']}", bold=True),
            Line(text=_("From"), right=where % {"table": slip.from_table, "seat": slip.from_seat}),
            Line(text=_("To"), right=where % {"table": slip.to_table, "seat": slip.to_seat}, bold=True),
            Line(text=str(move["reason"])),
        ],
    )


class FloorPrintView(RoleRequiredMixin, View):
    """POST: a batch of papers to the floor desk's printer, then back to the page they came from
    with how many went. Each subclass says what to print (`printouts`, None when there is
    nothing to print from) and in which words."""

    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]
    back = "tournaments:seating"

    def printouts(self, tournament: Tournament, back: str) -> list[Printout] | None:
        raise NotImplementedError

    def no_printer_message(self) -> str:
        return _("No floor printer is set up: print the slips from the browser.")

    def sent_message(self) -> str:
        raise NotImplementedError

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        printer = floor_printer_get()
        back = reverse(self.back, args=[pk])
        printouts = self.printouts(tournament, back) if printer is not None else None
        if printouts is None:
            messages.error(request, self.no_printer_message())
            return redirect(back)
        sent = print_batch(actor=request.user, printer=printer, printouts=printouts)
        messages.success(request, self.sent_message() % {"printer": printer, "n": sent})
        return redirect(back)


class MoveSlipsPrintView(FloorPrintView):
    """POST: every move still waiting, one slip each, to the floor desk's printer. A slip
    printed once is not printed again; one that did not come out shows on the seating chart
    with "print again"."""

    def printouts(self, tournament, back):
        return [
            Printout(
                kind=JobKind.MOVE_SLIP,
                reference=f"move_slip:{move['slip'].pk}",
                document=move_slip_document(tournament=tournament, move=move),
                browser_url=back,
            )
            for move in pending_moves(tournament=tournament)
        ]

    def sent_message(self):
        return _("Move slips sent to %(printer)s: %(n)d.")


def seat_ticket_document(*, tournament: Tournament, table_number: int, seat: dict) -> Document:
    title = _("Seat ticket")
    return Document(
        title=f"{title} #{seat['entry'].number}",
        lines=[
            Line(text=tournament.name, heading=True),
            Line(text=title, bold=True),
            Line(text=f"#{seat['entry'].number} {seat['label']}"),
            Line(rule=True),
            Line(
                text=_("Table %(table)s, seat %(seat)s") % {"table": table_number, "seat": seat["seat"]},
                heading=True,
            ),
        ],
    )


class SeatTicketsPrintView(FloorPrintView):
    """POST: a seat ticket for every player seated now, table by table, to the floor desk's
    printer (TRN-9). A player whose seat has not changed since his last ticket gets none."""

    def printouts(self, tournament, back):
        return [
            Printout(
                kind=JobKind.SEAT_TICKET,
                reference=f"seat_ticket:{seat['entry'].pk}:{row['table'].pk}:{seat['seat']}",
                document=seat_ticket_document(
                    tournament=tournament, table_number=row["table"].number, seat=seat
                ),
                browser_url=back,
            )
            for row in seating_tables(tournament=tournament)
            for seat in row["seats"]
            if seat["entry"] is not None
        ]

    def sent_message(self):
        return _("Seat tickets sent to %(printer)s: %(n)d.")


def chip_race_document(*, tournament: Tournament, active: dict, row: dict) -> Document:
    """A table's sheet for the chip race (CHP-1): each player by seat, with room to write the
    leaving chips he holds and his best card."""
    title = f"{_('Colour-up')} {row['table']}"
    write_in = "  ".join(f"{chip.value_text}: ____" for chip in active["leaving_chips"])
    lines = [
        Line(text=tournament.name, heading=True),
        Line(text=title, bold=True),
        Line(
            text=_("Leaving play"),
            right=", ".join(f"{chip.value_text} {chip.colour_label}" for chip in active["leaving_chips"]),
        ),
        Line(
            text=_("Exchanged for"), right=f"{active['chip_up_text']} {active['chip_up_chip'].colour_label}"
        ),
        Line(rule=True),
    ]
    for seat in row["seats"]:
        lines += [
            Line(text=f"{seat['seat']}. #{seat['entry'].number} {seat['label']}", bold=True),
            Line(text=f"  {write_in}  {_('Best card')}: ___"),
        ]
    lines += [Line(rule=True), Line(), Line(text=f"{_('Floor')}: ____________________")]
    return Document(title=title, lines=lines)


class ChipRaceSheetsPrintView(FloorPrintView):
    """POST: the coming colour-up's sheet, one a table, to the floor desk's printer; a table's
    sheet for one colour-up is printed once."""

    back = "tournaments:colour-up"

    def printouts(self, tournament, back):
        sheet = colour_up_sheet_get(tournament=tournament)
        active = sheet["active"]
        if active is None:
            return None
        return [
            Printout(
                kind=JobKind.CHIP_RACE,
                reference=f"chip_race:{row['table'].pk}:{active['order']}",
                document=chip_race_document(tournament=tournament, active=active, row=row),
                browser_url=back,
            )
            for row in sheet["tables"]
        ]

    def no_printer_message(self):
        return _("No floor printer is set up: print the sheet from the browser.")

    def sent_message(self):
        return _("Chip-race sheets sent to %(printer)s: %(n)d.")
