"""TRN-9 on paper: the floor sends the waiting move slips to the floor desk's printer, one slip
a player, cut apart; a slip printed once is not printed twice; without a floor printer the
browser prints them."""

import random

import pytest
from django.utils import translation

from printing.models import JobStatus, PrintJob
from printing.services import printer_save
from tests.printing.stand_in import read_escpos
from tests.printing.test_receipt_print import CUT, row
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import T0, TournamentFactory, seat_players
from tests.tournaments.test_floor_seating import started
from tournaments.models import Entry, MoveSlip
from tournaments.selectors.floor import player_label
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_printer(manager, stand_in):
    return printer_save(
        actor=manager,
        name="Floor",
        desk="Tournament desk",
        desk_kind="floor",
        connection="network",
        host="127.0.0.1",
        port=stand_in.port,
        paper_width=32,
        code_page="CP852",
        has_cash_drawer=False,
        active=True,
    )


def a_move(floor, make_tournament) -> tuple:
    tournament, entries = started(floor, make_tournament, 12)
    at_table = list(Entry.objects.filter(table=entries[0].table).order_by("seat"))
    entry_bust(
        actor=floor, tournament=tournament, busted=[(at_table[0].pk, 100), (at_table[1].pk, 200)], now=T0
    )
    return tournament, MoveSlip.objects.get()


def test_the_floor_prints_its_move_slips_on_the_floor_printer_once__TRN_9(
    client, floor, make_tournament, floor_printer, stand_in, django_capture_on_commit_callbacks
):
    tournament, slip = a_move(floor, make_tournament)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert "Print on Floor" in page
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/tournaments/{tournament.pk}/slips/print/", follow=True)
    assert "Move slips sent to Floor (Tournament desk): 1." in answer.content.decode()
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert printout.lines[1:] == [
        f"Move slip #{slip.pk}",
        "2026-03-06 19:00",  # T0 (18:00 UTC) on the venue's clock
        "-" * 32,
        f"#{slip.entry.number} {player_label(slip.entry)}",
        row("From", f"Table {slip.from_table}, seat {slip.from_seat}", width=32),
        row("To", f"Table {slip.to_table}, seat {slip.to_seat}", width=32),
        f"Table {slip.from_table} has 6, table {slip.to_table} has 4",
        "",
    ]
    assert printout.has(CUT)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{tournament.pk}/slips/print/")
    assert PrintJob.objects.get().status == JobStatus.DONE and len(stand_in.wait_for(2, timeout=0.3)) == 1


def test_without_a_floor_printer_the_browser_prints_the_slips__TRN_9(client, floor, make_tournament):
    tournament, _slip = a_move(floor, make_tournament)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert "Print move slips" in page and "Print on" not in page
    answer = client.post(f"/tournaments/{tournament.pk}/slips/print/", follow=True).content.decode()
    assert "No floor printer is set up: print the slips from the browser." in answer
    assert not PrintJob.objects.exists()


def test_seat_tickets_print_one_a_player_and_again_only_for_a_new_seat__TRN_9(
    client, floor, make_tournament, floor_printer, stand_in, django_capture_on_commit_callbacks
):
    tournament, _entries = started(floor, make_tournament, 4)
    client.force_login(floor)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/tournaments/{tournament.pk}/seat-tickets/print/", follow=True)
    assert "Seat tickets sent to Floor (Tournament desk): 4." in answer.content.decode()
    tickets = [read_escpos(stream) for stream in stand_in.wait_for(4)]
    first = Entry.objects.order_by("table__number", "seat").select_related("table").first()
    assert tickets[0].lines == [
        tournament.name[:16],
        "Seat ticket",
        f"#{first.number} {player_label(first)}",
        "-" * 32,
        f"Table {first.table.number}, seat {first.seat}",
        "",
    ]
    assert all(ticket.has(CUT) for ticket in tickets)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{tournament.pk}/seat-tickets/print/")
    assert PrintJob.objects.filter(kind="seat_ticket").count() == 4


def test_chip_race_sheets_print_one_a_table_with_room_to_write__CHP_1_TRN_9(
    client, floor, blind_presets, floor_printer, stand_in, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(levels=LEVELS, min_players=2)
    seat_players(tournament, 4)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    client.force_login(floor)
    assert "Print on Floor" in client.get(f"/tournaments/{tournament.pk}/colour-up/").content.decode()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{tournament.pk}/colour-up/print/")
    sheet = read_escpos(stand_in.wait_for(1)[0])
    first = Entry.objects.filter(tournament=tournament).order_by("seat").first()
    assert sheet.lines[1] == f"Colour-up {first.table}"
    # The chips leaving play (named on the sheet's third line) each get a blank to write in.
    assert sheet.lines[2].startswith("Leaving play ")
    leaving = [name.split()[0] for name in sheet.lines[2].removeprefix("Leaving play").strip().split(", ")]
    write_in = "  ".join(f"{value}: ____" for value in leaving)
    assert leaving and sheet.lines[5:7] == [
        f"{first.seat}. #{first.number} {player_label(first)}",
        f"  {write_in}  Best card: ___",
    ]
    assert sheet.lines[-3:] == ["", "Floor: ____________________", ""]
    assert sheet.has(CUT) and PrintJob.objects.get().kind == "chip_race"
