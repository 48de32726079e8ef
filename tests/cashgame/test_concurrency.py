"""Dealers and cashiers at one table at once on PostgreSQL: a hand is ended once, a top-up is
either refused (a hand in progress, CSH-3) or posted once, and the ledger stays exact (RAK-1,
CAG-1). Both sides lock the table row, so they are ordered."""

import threading

import pytest
from django.db import connections
from django.db.models import Sum

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashgame.models import Hand, HandStatus, PlayerSession, SessionEvent
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.sessions import session_buy_in, session_move, session_state_change, session_top_up
from cashier.models import AccountKind
from cashier.selectors import account_amount, ledger_total, unbalanced_postings
from cashier.services import shift_open
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_threads(targets) -> list[Exception]:
    errors: list[Exception] = []

    def wrap(target):
        try:
            target()
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=wrap, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def setup_table(players: int):
    floor = make_staff("pgfloor", Role.FLOOR)
    cashier = make_staff("pgcashier", Role.CASHIER)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=10_000_000)
    table = make_table(make_game())
    sessions = []
    for seat in range(1, players + 1):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at="2026-01-01T00:00:00Z"),
            seat=seat,
            amount_cents=30_000,
            idempotency_key=f"pg-buyin-{seat:04d}",
        )
        sessions.append(session_state_change(actor=floor, session=session, action="posted"))
    return floor, cashier, shift, table, sessions


def test_a_hand_ended_by_two_tablets_at_once_is_raked_once__RAK_1():
    floor, _cashier, _shift, table, _sessions = setup_table(4)
    hand = hand_flop(actor=floor, hand=hand_start(actor=floor, table=table, seats=[1, 2, 3, 4]))
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def end():
        barrier.wait()
        try:
            hand_end(actor=floor, hand=hand, pot_cents=22_000)
            outcomes.append("ended")
        except DomainError as error:
            outcomes.append(error.code)

    assert run_threads([end] * 4) == []
    assert sorted(outcomes) == ["ended", "hand_already_ended", "hand_already_ended", "hand_already_ended"]
    assert account_amount(kind=AccountKind.RAKE_REVENUE) == 500
    assert account_amount(kind=AccountKind.JACKPOT_FUND) == 100


def test_hands_and_top_ups_at_one_table_keep_the_ledger_exact__CSH_3():
    floor, cashier, shift, table, sessions = setup_table(4)
    refused: list[str] = []

    def dealer():
        for _ in range(15):
            hand = hand_flop(actor=floor, hand=hand_start(actor=floor, table=table, seats=[1, 2, 3, 4]))
            hand_end(actor=floor, hand=hand, pot_cents=4_000)

    def cage(worker: int):
        def run():
            for n in range(15):
                try:
                    session_top_up(
                        actor=cashier,
                        shift=shift,
                        session=sessions[worker],
                        amount_cents=100,
                        chips_on_table_cents=20_000,
                        idempotency_key=f"pg-topup-{worker}-{n:03d}",
                    )
                except DomainError as error:
                    assert error.code == "hand_in_progress"
                    refused.append(error.code)

        return run

    assert run_threads([dealer, cage(0), cage(1), cage(2)]) == []
    topped_up = SessionEvent.objects.filter(kind="top_up").aggregate(total=Sum("amount_cents"))["total"] or 0
    assert SessionEvent.objects.filter(kind="top_up").count() + len(refused) == 45
    hands = Hand.objects.filter(table=table)
    assert hands.filter(status=HandStatus.ENDED).count() == 15
    fees = sum(hand.rake_cents + hand.jackpot_drop_cents for hand in hands)
    assert fees == 15 * (200 + 100)
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 120_000 + topped_up - fees
    assert ledger_total() == 0 and not unbalanced_postings().exists()


def test_crossing_table_changes_lock_both_tables_in_order_and_never_deadlock():
    """Two players change tables in opposite directions at once, again and again: each move
    locks both tables in one statement in primary-key order (cashgame.locks.tables_for_update),
    so neither waits on the other for ever, and the chips move exactly."""
    floor = make_staff("pgfloor", Role.FLOOR)
    cashier = make_staff("pgcashier", Role.CASHIER)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=10_000_000)
    game = make_game()
    tables = [make_table(game, 1), make_table(game, 2)]
    movers = []
    for index, table in enumerate(tables):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at="2026-01-01T00:00:00Z"),
            seat=1 + index,
            amount_cents=30_000,
            idempotency_key=f"pg-move-{index}",
        )
        movers.append(session)

    def shuttle(session_id: int, seats: tuple[int, int]):
        def run():
            for n in range(12):
                session = PlayerSession.objects.get(pk=session_id)
                target = tables[1] if session.table_id == tables[0].pk else tables[0]
                session_move(
                    actor=floor, session=session, table=target, seat=seats[n % 2], chips_cents=30_000
                )

        return run

    assert run_threads([shuttle(movers[0].pk, (5, 6)), shuttle(movers[1].pk, (7, 8))]) == []
    chips = [account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) for table in tables]
    assert chips == [30_000, 30_000]  # twelve moves each: both players are back where they started
    assert SessionEvent.objects.filter(kind="move").count() == 24
    assert ledger_total() == 0 and not unbalanced_postings().exists()
