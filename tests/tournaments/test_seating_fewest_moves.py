"""Seating moves as few players as TRN-9 allows: late entries take free seats first, a table
opened after the draw breaks first, a waiting slip is replaced (never added to) and called off
when the player ends in the seat never left, and each slip names its player by entry number."""

import random
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.tournaments.factories import T0
from tournaments.models import Entry, MoveSlip, Table
from tournaments.selectors.floor import pending_moves
from tournaments.selectors.seating import bust_preview
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.seating import move_slip_confirm, seating_table_open

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)


def seats(tournament) -> dict[int, tuple[int, int]]:
    """{entry number: (table, seat)} of the players still in."""
    return {
        number: (table, seat)
        for number, table, seat in tournament.entries.filter(status="active").values_list(
            "number", "table__number", "seat"
        )
    }


def waiting(tournament) -> list[tuple[int, str, str]]:
    return [
        (slip.entry.number, str(slip), slip.reason)
        for slip in MoveSlip.objects.filter(
            tournament=tournament, confirmed_at__isnull=True, replaced_at__isnull=True
        ).order_by("pk")
    ]


@pytest.fixture
def seen(floor, register, make_tournament):
    """The night of the issue: 6 players drawn at table 1 (9 seats), then 4 late entries."""
    tournament = make_tournament(late_registration_level=3)
    for _ in range(6):
        register(tournament)
    tournament = tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    assert seats(tournament) == {1: (1, 9), 2: (1, 2), 3: (1, 4), 4: (1, 5), 5: (1, 6), 6: (1, 8)}
    return tournament


def test_late_entries_fill_free_seats_before_a_table_opens__TRN_9(seen, register):
    for number in range(7, 10):
        register(seen, now=T0 + number * S)
        # While a seat is free no table opens and no one moves.
        assert (seen.tables.count(), MoveSlip.objects.count()) == (1, 0)
    assert sorted(seat for table, seat in seats(seen).values()) == list(range(1, 10))


def test_tenth_player_opens_a_table_that_breaks_first_and_four_move__TRN_9(seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    # The tenth finds no free seat: table 2 opens and the tables balance 5 and 5 (9 - 4 = 5 at
    # table 1, 4 moved + the tenth at table 2), the next big blind of table 1 moving each time.
    assert seats(seen) == {
        1: (1, 9),
        2: (1, 2),
        3: (2, 1),
        4: (2, 9),
        5: (2, 8),
        6: (1, 8),
        7: (1, 1),
        8: (1, 3),
        9: (2, 7),
        10: (2, 3),
    }
    assert waiting(seen) == [
        (3, "Table 1 seat 4 -> Table 2 seat 1", "late"),
        (4, "Table 1 seat 5 -> Table 2 seat 9", "late"),
        (5, "Table 1 seat 6 -> Table 2 seat 8", "late"),
        (9, "Table 1 seat 7 -> Table 2 seat 7", "late"),
    ]
    # The new table goes first in the break order: the players just moved there go back first.
    assert list(seen.tables.order_by("break_rank").values_list("number", flat=True)) == [2, 1]
    assert AuditRecord.objects.filter(action="seating.table_open").count() == 1


def test_first_bust_calls_the_waiting_moves_off_instead_of_adding_slips__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    bluff = seen.entries.get(number=7)  # table 1 seat 1
    # Before the tap the floor sees what the bust-out will do: table 2 breaks, one player moves
    # (the tenth, who sat down at table 2), and the four waiting moves are called off.
    preview = bust_preview(tournament=seen, entry_ids=[bluff.pk])
    assert (preview.breaking, len(preview.slips), preview.called_off) == ([2], 1, 4)

    entry_bust(actor=floor, tournament=seen, busted=[(bluff.pk, None)], now=T0 + 20 * S, rng=random.Random(2))

    assert seats(seen) == {
        1: (1, 9),
        2: (1, 2),
        3: (1, 4),
        4: (1, 5),
        5: (1, 6),
        6: (1, 8),
        8: (1, 3),
        9: (1, 7),
        10: (1, 1),
    }
    assert waiting(seen) == [(10, "Table 2 seat 3 -> Table 1 seat 1", "break")]
    assert MoveSlip.objects.filter(replaced_at=T0 + 20 * S).count() == 4
    assert list(Table.objects.filter(tournament=seen, status="open").values_list("number", flat=True)) == [1]


def test_bust_at_the_new_table_moves_no_one__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    tenth = seen.entries.get(number=10)
    preview = bust_preview(tournament=seen, entry_ids=[tenth.pk])
    assert (preview.breaking, preview.slips, preview.called_off) == ([2], [], 4)
    entry_bust(actor=floor, tournament=seen, busted=[(tenth.pk, None)], now=T0 + 20 * S, rng=random.Random(2))
    # Everyone is back in the seat they never left; the floor has no slip at all.
    assert waiting(seen) == []
    assert seats(seen) == {
        1: (1, 9),
        2: (1, 2),
        3: (1, 4),
        4: (1, 5),
        5: (1, 6),
        6: (1, 8),
        7: (1, 1),
        8: (1, 3),
        9: (1, 7),
    }


def test_confirmed_moves_go_back_with_new_slips__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    for slip in MoveSlip.objects.all():
        move_slip_confirm(actor=floor, slip=slip, now=T0 + 15 * S)
    bluff = seen.entries.get(number=7)
    preview = bust_preview(tournament=seen, entry_ids=[bluff.pk])
    # The players did move to table 2: breaking it now moves all five of them.
    assert (len(preview.slips), preview.called_off) == (5, 0)
    entry_bust(actor=floor, tournament=seen, busted=[(bluff.pk, None)], now=T0 + 20 * S, rng=random.Random(2))
    assert sorted((n, reason) for n, _text, reason in waiting(seen)) == [
        (n, "break") for n in (3, 4, 5, 9, 10)
    ]
    assert all(text.startswith("Table 2 seat ") for _n, text, _r in waiting(seen))


def test_a_player_out_has_no_slip_left__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    mover = seen.entries.get(number=3)  # on a waiting slip to table 2
    entry_bust(actor=floor, tournament=seen, busted=[(mover.pk, None)], now=T0 + 20 * S, rng=random.Random(2))
    assert 3 not in [number for number, _text, _reason in waiting(seen)]
    assert AuditRecord.objects.get(action="seating.slips_called_off").after == {
        "moves": [[3, "Table 1 seat 4 -> Table 2 seat 1"]]
    }


def test_the_database_refuses_two_waiting_slips_for_one_entry__TRN_9(seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    slip = MoveSlip.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        MoveSlip.objects.create(
            tournament=seen,
            entry=slip.entry,
            from_table=1,
            from_seat=4,
            to_table=2,
            to_seat=2,
            reason="balance",
            created_at=T0,
        )


def test_replaced_slip_cannot_be_confirmed__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    slip = MoveSlip.objects.get(entry__number=3)
    bluff = seen.entries.get(number=7)
    entry_bust(actor=floor, tournament=seen, busted=[(bluff.pk, None)], now=T0 + 20 * S, rng=random.Random(2))
    records = AuditRecord.objects.count()
    with pytest.raises(DomainError) as refused:
        move_slip_confirm(actor=floor, slip=slip, now=T0 + 30 * S)
    assert (refused.value.code, refused.value.rule) == ("slip_replaced", "TRN-9")
    slip.refresh_from_db()
    assert (slip.confirmed_at, AuditRecord.objects.count()) == (None, records)


def test_slips_name_nickname_and_entry_number__TRN_9(floor, seen, register):
    for number in range(7, 11):
        register(seen, now=T0 + number * S)
    for number in (3, 9):
        player = seen.entries.get(number=number).player
        player.nickname = "Bluff"
        player.save()
    rows = [(move["slip"].entry.number, move["label"]) for move in pending_moves(tournament=seen)]
    assert rows == [(3, "Bluff"), (4, rows[1][1]), (5, rows[2][1]), (9, "Bluff")]
    texts = [move["text"] for move in pending_moves(tournament=seen)]
    assert texts[0] == "#3 Bluff: table 1, seat 4 → table 2, seat 1"
    assert texts[3] == "#9 Bluff: table 1, seat 7 → table 2, seat 7"


def test_floor_opens_a_table_while_seats_are_free__TRN_9(floor, seen):
    slips = seating_table_open(actor=floor, tournament=seen, now=T0 + S)
    # 6 at table 1 (seats 2, 4, 5, 6, 8, 9; no button yet, so it counts as in seat 1): three move
    # to the new table 2, each time the next big blind (button 2, small blind 4, big blind 5...).
    assert [(s.entry.number, str(s), s.reason) for s in slips] == [
        (4, "Table 1 seat 5 -> Table 2 seat 1", "open"),
        (5, "Table 1 seat 6 -> Table 2 seat 9", "open"),
        (6, "Table 1 seat 8 -> Table 2 seat 8", "open"),
    ]
    assert list(seen.tables.order_by("break_rank").values_list("number", flat=True)) == [2, 1]


def test_floor_cannot_open_a_table_once_registration_closed__TRN_9(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=0)
    for _ in range(6):
        register(tournament)
    tournament = tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    from tournaments.services._common import rules_for

    rules = rules_for(tournament)
    rules.registration_closed_at = T0
    rules.save()
    before = (Table.objects.count(), MoveSlip.objects.count(), AuditRecord.objects.count())
    with pytest.raises(DomainError) as refused:
        seating_table_open(actor=floor, tournament=tournament, now=T0 + S)
    assert (refused.value.code, refused.value.rule) == ("registration_closed", "TRN-9")
    assert (Table.objects.count(), MoveSlip.objects.count(), AuditRecord.objects.count()) == before


def test_reentry_takes_a_free_seat_at_a_running_table__TRN_9(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=3, max_reentries=1)
    entries = [register(tournament) for _ in range(12)]
    tournament = tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    out = Entry.objects.get(pk=entries[0].pk)
    entry_bust(actor=floor, tournament=tournament, busted=[(out.pk, None)], now=T0 + S)
    again = register(tournament, player=out.player, now=T0 + 2 * S)
    assert again.kind == "re_entry" and again.table is not None
    assert tournament.tables.count() == 2 and MoveSlip.objects.count() == 0


def test_withdrawn_entry_leaves_no_slip_waiting__TRN_9_CAG_6(
    floor, cashier, shift, make_tournament, register
):
    from reports.selectors.books import books_problems
    from tests.tournaments.conftest import key
    from tournaments.services.registration import entry_withdraw
    from tournaments.services.seating import seating_draw

    tournament = make_tournament(late_registration_level=3)
    for _ in range(6):
        register(tournament)
    seating_draw(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    slips = seating_table_open(actor=floor, tournament=tournament, now=T0 + S)
    leaving = slips[0].entry
    entry_withdraw(actor=cashier, entry=leaving, shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    assert [n for n, _text, _reason in waiting(tournament)] == [s.entry.number for s in slips[1:]]
    assert books_problems() == []
