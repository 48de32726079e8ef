"""Seating (TRN-9, HND-2), bust-outs and payouts (TRN-10), deals."""

import random
from collections import Counter
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import CashierTransaction
from cashier.selectors import ledger_total, prize_pool_balance
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tournaments.models import Entry, MoveSlip, PayoutPlace, Table
from tournaments.services._common import rules_for
from tournaments.services.payouts import (
    bust_undo,
    deal_accept,
    entry_bust,
    payout_table_set,
    payouts_finalise,
    prize_pay,
)
from tournaments.services.registration import tournament_start
from tournaments.services.seating import (
    move_slip_confirm,
    seating_final_table_draw,
    table_button_draw,
)

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)


def started(floor, register, make_tournament, players: int, **kwargs):
    kwargs.setdefault("late_registration_level", 0)
    tournament = make_tournament(**kwargs)
    for _ in range(players):
        register(tournament)
    return tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))


def table_sizes(tournament):
    counts = Counter(tournament.entries.filter(status="active").values_list("table__number", flat=True))
    return sorted(counts.values())


def test_seat_draw_spreads_field__TRN_9(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 20)
    assert tournament.tables.count() == 3
    assert table_sizes(tournament) == [6, 7, 7]
    assert sorted(Table.objects.values_list("break_rank", flat=True)) == [1, 2, 3]
    seats = list(Entry.objects.values_list("table_id", "seat"))
    assert len(set(seats)) == 20
    assert AuditRecord.objects.filter(action="seating.draw").count() == 1


def test_late_entry_takes_shortest_table_and_new_table_opens__TRN_9(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 9, late_registration_level=2)
    assert table_sizes(tournament) == [9]
    entry = register(tournament, now=T0 + S)
    # Every seat was taken: table 2 opens and the first table balances onto it with a move slip.
    assert tournament.tables.count() == 2
    assert table_sizes(tournament) == [5, 5]
    assert entry.table.number == 2
    slips = list(MoveSlip.objects.order_by("pk"))
    assert len(slips) == 4 and {s.reason for s in slips} == {"late"}
    assert all(str(s).startswith("Table 1 seat ") and " -> Table 2 seat " in str(s) for s in slips)


def test_bust_out_balances_with_move_slips__TRN_9(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 18)
    assert table_sizes(tournament) == [9, 9]
    table1 = list(tournament.entries.filter(table__number=1).order_by("seat"))
    entry_bust(
        actor=floor, tournament=tournament, busted=[(table1[0].pk, 100), (table1[1].pk, 200)], now=T0 + S
    )
    # 7 against 9: one player moves from the fuller table (TRN-9: no table two more than another).
    assert table_sizes(tournament) == [8, 8]
    slip = MoveSlip.objects.get()
    assert (slip.reason, slip.from_table, slip.to_table) == ("balance", 2, 1)
    assert str(slip) == f"Table 2 seat {slip.from_seat} -> Table 1 seat {slip.to_seat}"
    moved = slip.entry
    moved.refresh_from_db()
    assert (moved.table.number, moved.seat) == (1, slip.to_seat)
    move_slip_confirm(actor=floor, slip=slip, now=T0 + 3 * S)
    assert MoveSlip.objects.get().confirmed_by == floor
    entry_bust(actor=floor, tournament=tournament, busted=[(table1[2].pk, 100)], now=T0 + 4 * S)
    # 7 against 8 is within one: no one moves.
    assert table_sizes(tournament) == [7, 8]
    assert MoveSlip.objects.count() == 1


def test_table_breaks_when_others_absorb__TRN_9(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 18)
    break_first = tournament.tables.get(break_rank=1).number
    victims = list(tournament.entries.order_by("pk"))[:9]
    entry_bust(actor=floor, tournament=tournament, busted=[(v.pk, 100) for v in victims[:8]], now=T0 + S)
    # 10 players on 2 tables of 9: no table breaks yet.
    assert tournament.tables.filter(status="open").count() == 2
    entry_bust(actor=floor, tournament=tournament, busted=[(victims[8].pk, 100)], now=T0 + 2 * S)
    # 9 left: the table drawn to break first breaks; its players draw for seats at the other.
    assert list(tournament.tables.order_by("break_rank").values_list("number", "status")) == [
        (break_first, "broken"),
        (3 - break_first, "open"),
    ]
    assert table_sizes(tournament) == [9]
    slips = list(MoveSlip.objects.filter(reason="break"))
    assert slips and all((s.from_table, s.to_table) == (break_first, 3 - break_first) for s in slips)
    assert AuditRecord.objects.filter(action="seating.break_table").count() == 1


def test_one_bust_out_breaks_two_tables_at_once__TRN_9(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 20)
    assert table_sizes(tournament) == [6, 7, 7]
    stays = tournament.tables.get(break_rank=3).number
    # Eleven out in one hand, one player kept at each of the two tables that break first (an
    # emptied table just closes): the 9 left fit one table, so both break together.
    victims = [
        entry
        for rank in (1, 2)
        for entry in list(tournament.entries.filter(table__break_rank=rank).order_by("pk"))[1:]
    ][:11]
    assert len(victims) == 11
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(v.pk, 100 * (i + 1)) for i, v in enumerate(victims)],
        now=T0 + S,
    )
    assert list(tournament.tables.filter(status="open").values_list("number", flat=True)) == [stays]
    assert table_sizes(tournament) == [9]
    slips = list(MoveSlip.objects.all())
    # No one was sent to a table breaking in the same bust-out, and each moved once.
    assert slips and all(s.to_table == stays and s.from_table != stays for s in slips)
    assert len({s.entry_id for s in slips}) == len(slips)
    assert AuditRecord.objects.filter(action="seating.break_table").count() == 2


def test_final_table_draw_and_button_draw__HND_2(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 12)
    victims = list(tournament.entries.order_by("pk"))[:3]
    entry_bust(actor=floor, tournament=tournament, busted=[(v.pk, 100) for v in victims], now=T0 + S)
    assert tournament.tables.filter(status="open").count() == 1
    slips = seating_final_table_draw(actor=floor, tournament=tournament, now=T0 + 2 * S, rng=random.Random(2))
    final = tournament.tables.get(status="open")
    assert all(s.reason == "final" and s.to_table == final.number for s in slips)
    seats = sorted(tournament.entries.filter(status="active").values_list("seat", flat=True))
    assert seats == list(range(1, 10))
    cards = dict(zip(range(1, 10), ["2c", "Kd", "Kh", "7s", "9c", "Td", "Jh", "3s", "4d"], strict=True))
    final = table_button_draw(actor=floor, table=final, cards=cards, now=T0 + 3 * S)
    assert final.button_seat == 3  # king of hearts beats king of diamonds (HND-2)
    with pytest.raises(DomainError) as error:
        table_button_draw(actor=floor, table=final, cards={1: "As"}, now=T0 + 4 * S)
    assert error.value.rule == "HND-2"


def test_same_hand_busts_larger_stack_finishes_higher__TRN_10(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 6)
    a, b, c = list(tournament.entries.order_by("pk"))[:3]
    busted = entry_bust(
        actor=floor, tournament=tournament, busted=[(a.pk, 3_000), (b.pk, 9_000), (c.pk, 5_000)], now=T0 + S
    )
    assert {e.pk: e.finish_place for e in busted} == {b.pk: 4, c.pk: 5, a.pk: 6}


def test_busting_twice_refused__TRN_10(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 4)
    entry = tournament.entries.order_by("pk").first()
    entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, 100)], now=T0 + S)
    audits = AuditRecord.objects.count()
    with pytest.raises(DomainError) as error:
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, 100)], now=T0 + 2 * S)
    assert (error.value.code, error.value.rule) == ("already_busted", "TRN-10")
    assert AuditRecord.objects.count() == audits
    assert rules_for(tournament).bust_sequence == 1
    assert Entry.objects.get(pk=entry.pk).finish_place == 4


def test_undo_last_bust_out__TRN_10(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 4)
    entry = tournament.entries.order_by("pk").first()
    table, seat = entry.table_id, entry.seat
    entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, 100)], now=T0 + S)
    bust_undo(actor=floor, tournament=tournament, now=T0 + 2 * S)
    entry.refresh_from_db()
    assert (entry.status, entry.finish_place, entry.table_id, entry.seat) == ("active", None, table, seat)
    with pytest.raises(DomainError) as error:
        bust_undo(actor=floor, tournament=tournament, now=T0 + 3 * S)
    assert error.value.code == "nothing_to_undo"


def play_to_the_end(floor, tournament):
    entries = list(tournament.entries.order_by("pk"))
    for i, entry in enumerate(entries[:-1]):
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, 100)], now=T0 + (i + 1) * S)
    return entries


def test_payouts_sum_to_prize_pool_and_pay_once__TRN_10(
    floor, cashier, shift, register, make_tournament, venue
):
    tournament = started(floor, register, make_tournament, 10, prize_cents=3_333)
    payout_table_set(actor=floor, tournament=tournament, percentages=[5_000, 3_000, 2_000], now=T0)
    entries = play_to_the_end(floor, tournament)
    # 10 x 33.33 = 333.30 EUR: 166.65, 99.99, 66.66 rounded down to 0.50 EUR chips are 166.50,
    # 99.50, 66.50; the 0.80 EUR remainder goes to first place (TRN-10).
    assert list(PayoutPlace.objects.values_list("amount_cents", flat=True)) == [16_730, 9_950, 6_650]
    winner, second, third = entries[-1], entries[-2], entries[-3]
    assert [Entry.objects.get(pk=e.pk).finish_place for e in (winner, second, third)] == [1, 2, 3]
    paid = prize_pay(actor=cashier, entry=winner, shift=shift, idempotency_key="prize-key-1", now=T0 + 60 * S)
    assert paid.prize_transaction.amount_cents == 16_730
    assert (
        prize_pay(actor=cashier, entry=winner, shift=shift, idempotency_key="prize-key-1", now=T0).pk
        == winner.pk
    )
    before = CashierTransaction.objects.count()
    with pytest.raises(DomainError) as error:
        prize_pay(actor=cashier, entry=winner, shift=shift, idempotency_key=key(), now=T0 + 61 * S)
    assert (error.value.code, error.value.rule) == ("prize_already_paid", "TRN-10")
    assert CashierTransaction.objects.count() == before
    with pytest.raises(DomainError) as error:
        prize_pay(actor=cashier, entry=entries[0], shift=shift, idempotency_key=key(), now=T0 + 62 * S)
    assert error.value.code == "no_prize_due"
    for entry in (second, third):
        prize_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 63 * S)
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert ledger_total() == 0


def test_payout_table_must_sum_to_100_percent__TRN_10(floor, register, make_tournament):
    tournament = started(floor, register, make_tournament, 4)
    with pytest.raises(DomainError) as error:
        payout_table_set(actor=floor, tournament=tournament, percentages=[6_000, 3_000], now=T0)
    assert error.value.code == "bad_percentages"
    with pytest.raises(DomainError):
        payout_table_set(actor=floor, tournament=tournament, percentages=[3_000, 7_000], now=T0)
    assert rules_for(tournament).payout_percentages == []


def test_deal_replaces_remaining_payouts__TRN_10(floor, cashier, shift, register, make_tournament):
    tournament = started(floor, register, make_tournament, 4)
    payouts_finalise(actor=floor, tournament=tournament, now=T0 + S)
    # 4 entries pay one place (default table): 360.00 EUR to the winner.
    assert list(PayoutPlace.objects.values_list("amount_cents", flat=True)) == [36_000]
    entries = list(tournament.entries.order_by("pk"))
    entry_bust(
        actor=floor, tournament=tournament, busted=[(entries[0].pk, 100), (entries[1].pk, 50)], now=T0 + 2 * S
    )
    with pytest.raises(DomainError) as error:
        deal_accept(
            actor=floor,
            tournament=tournament,
            amounts={entries[2].pk: 20_000, entries[3].pk: 15_000},
            method="custom",
            now=T0 + 3 * S,
        )
    assert error.value.code == "deal_sum"
    deal_accept(
        actor=floor,
        tournament=tournament,
        amounts={entries[2].pk: 21_000, entries[3].pk: 15_000},
        method="custom",
        now=T0 + 3 * S,
    )
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[2].pk, 100)], now=T0 + 4 * S)
    assert list(tournament.entries.order_by("pk").values_list("finish_place", "prize_cents")) == [
        (3, None),
        (4, None),
        (2, 21_000),
        (1, 15_000),
    ]
    assert AuditRecord.objects.filter(action="tournament.deal").count() == 1
