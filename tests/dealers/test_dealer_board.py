"""The dealer board's reads and pages (DLR-1, DLR-2), and tournament tables in the rotation."""

import pytest
from django.utils import translation

from cardroom.models import AuditRecord
from dealers.board import board_get, table_dealers
from dealers.models import Assignment, Shift
from dealers.selectors import cash_key, tournament_key
from dealers.services.rotation import rotation_settle
from dealers.services.shifts import shift_clock_in
from tests.dealers.conftest import at
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Table as TournamentTable
from tournaments.models import TableStatus

pytestmark = pytest.mark.django_db


def test_board_shows_who_deals_where_and_who_comes_next__DLR_1(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    board = board_get(now=at(26))
    assert [(row["table"].label, row["dealer"], row["since"]) for row in board["tables"]] == [
        ("Table 1", "Eva", at(0)),
        ("Table 2", "Jana", at(0)),
        ("Table 3", "Marek", at(0)),
    ]
    assert [(row["dealer"].name, row["state"], row["table"]) for row in board["dealers"]] == [
        ("Eva", "dealing", "Table 1"),
        ("Jana", "dealing", "Table 2"),
        ("Marek", "dealing", "Table 3"),
        ("Peter", "free", ""),
    ]
    assert (board["next_due"], board["next_minutes"]) == (at(30), 4)
    assert [(p["dealer"], p["table"]) for p in board["round"]] == [
        ("Peter", "Table 1"),
        ("Eva", "Table 2"),
        ("Jana", "Table 3"),
    ]
    assert [row["dealer"].name for row in board["waiting"]] == ["Peter"]
    assert [d.name for d in board["off_shift"]] == ["Zuzana"]
    assert board["gaps"] == []
    assert table_dealers(now=at(26))[cash_key(tables[0].pk)] == {
        "dealer": "Eva",
        "since": at(0),
        "next": {"dealer": "Peter", "due": at(30), "minutes": 4},
    }


def test_board_shows_breaks_until_when_and_the_tables_left_short__DLR_1(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    for minute in (30, 60, 90):
        rotation_settle(now=at(minute))
    board = board_get(now=at(95))
    assert [(row["dealer"].name, row["state"], row["until"]) for row in board["dealers"]] == [
        ("Eva", "break", at(105)),
        ("Jana", "break", at(105)),
        ("Marek", "break", at(105)),
    ]
    assert [(g["table"], g["kind"], g["start"], g["end"], g["minutes"]) for g in board["gaps"]][:3] == [
        ("Table 1", "no_dealer", at(90), at(105), 15),
        ("Table 2", "no_dealer", at(90), at(105), 15),
        ("Table 3", "no_dealer", at(90), at(105), 15),
    ]


def test_the_tables_left_short_are_named_in_the_readers_language__DLR_2(floor, tables, dealers):
    # The planner runs in no one's language (a background task); the board reads in Slovak.
    for name in ["Eva", "Jana", "Marek"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    with translation.override("en"):
        for minute in (30, 60, 90):
            rotation_settle(now=at(minute))
    with translation.override("sk"):
        board = board_get(now=at(95))
    assert [g["table"] for g in board["gaps"]][:3] == ["Stôl 1", "Stôl 2", "Stôl 3"]


def test_board_page_clocks_a_dealer_in_and_refuses_twice__DLR_1(client, floor, tables, dealers):
    client.force_login(floor)
    assert client.post(f"/dealers/{dealers['Eva'].pk}/clock-in/").status_code == 302
    assert Shift.objects.filter(dealer=dealers["Eva"], clocked_out_at__isnull=True).count() == 1
    audits = AuditRecord.objects.count()
    page = client.post(f"/dealers/{dealers['Eva'].pk}/clock-in/", follow=True).content.decode()
    assert "Eva is clocked in already." in page
    assert AuditRecord.objects.count() == audits
    assert "Dealer: Eva" in client.get("/floor/").content.decode()


def test_a_tournament_table_broken_frees_its_dealer_at_the_next_reconcile__DLR_2(floor, tables, dealers):
    tournament = TournamentFactory(name="Sunday Deep Stack", status="running")
    broken = TournamentTable.objects.create(tournament=tournament, number=1, seats=9, break_rank=1)
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    assert Assignment.objects.get(dealer=dealers["Peter"], until__isnull=True).tournament_table == broken
    TournamentTable.objects.filter(pk=broken.pk).update(status=TableStatus.BROKEN)  # as seating does
    rotation_settle(now=at(4))
    assert not Assignment.objects.filter(until__isnull=True, tournament_table=broken).exists()
    assert tournament_key(broken.pk) not in table_dealers(now=at(5))
