from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cashgame.models import HandStatus, PlayerSession, SeatState, SessionEvent
from cashgame.services.hands import hand_end, hand_start
from cashgame.services.sessions import (
    session_buy_in,
    session_cash_out,
    session_move,
    session_seat,
    session_stack_report,
    session_state_change,
    session_top_up,
)
from cashier.models import AccountKind, CashierTransaction, Entry
from cashier.selectors import account_amount, drawer_expected, ledger_total
from tests.cashgame.conftest import at, key, make_table, seat_players

pytestmark = pytest.mark.django_db


def chips(table) -> int:
    return account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=f"table:{table.pk}")


def buy_in(cashier, shift, table, player, cents, *, seat=1, idempotency_key=None, minute=1):
    return session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=player,
        seat=seat,
        amount_cents=cents,
        idempotency_key=idempotency_key or key(),
        now=at(minute),
    )


def assert_nothing_posted():
    assert not CashierTransaction.objects.exists()
    assert not Entry.objects.filter(account__kind=AccountKind.CHIPS_IN_PLAY).exists()


def test_buy_in_below_the_minimum_is_refused__CSH_1(cashier, shift, table12, player):
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, table12, player, 9_950)
    assert (error.value.code, error.value.rule) == ("buy_in_below_minimum", "CSH-1")
    assert "100.00 EUR" in error.value.message
    assert not PlayerSession.objects.exists()
    assert_nothing_posted()


def test_buy_in_above_the_maximum_is_refused__CSH_1(cashier, shift, table12, player):
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, table12, player, 30_050)
    assert (error.value.code, error.value.rule) == ("buy_in_above_maximum", "CSH-1")
    assert not PlayerSession.objects.exists()
    assert_nothing_posted()


def test_first_buy_in_posts_to_the_tables_chips_and_waits_for_the_button__CSH_1_CSH_6(
    cashier, shift, table12, player
):
    session = buy_in(cashier, shift, table12, player, 15_000, seat=4)
    assert (session.seat, session.state, session.buy_in_cents) == (4, SeatState.WAITING_FOR_BUTTON, 15_000)
    assert chips(table12) == 15_000
    assert drawer_expected(shift=shift) == 515_000
    record = CashierTransaction.objects.get()
    assert (record.kind, record.reference, record.amount_cents) == (
        "cash_buy_in",
        f"table:{table12.pk}",
        15_000,
    )
    event = SessionEvent.objects.get(kind="buy_in")
    assert (event.transaction, event.amount_cents) == (record, 15_000)
    assert ledger_total() == 0


def test_buy_in_repeated_with_its_key_posts_once__CAG_2(cashier, shift, table12, player):
    first = buy_in(cashier, shift, table12, player, 10_000, idempotency_key="cg-same-key-1")
    again = buy_in(cashier, shift, table12, player, 10_000, idempotency_key="cg-same-key-1")
    assert again.pk == first.pk
    assert CashierTransaction.objects.count() == 1
    assert chips(table12) == 10_000


def test_floor_seats_then_cashier_sells_the_first_buy_in(floor, cashier, shift, table12, player):
    seated = session_seat(actor=floor, table=table12, player=player, seat=6, now=at(1))
    assert seated.state == SeatState.AWAITING_BUY_IN
    session = session_buy_in(
        actor=cashier,
        shift=shift,
        table=table12,
        player=player,
        amount_cents=20_000,
        idempotency_key=key(),
        now=at(2),
    )
    assert (session.pk, session.seat, session.state, session.started_at) == (
        seated.pk,
        6,
        SeatState.WAITING_FOR_BUTTON,
        at(2),
    )


def test_floor_posts_no_money__ROL_1(floor, shift, table12, player):
    with pytest.raises(DomainError) as error:
        buy_in(floor, shift, table12, player, 10_000)
    assert error.value.rule == "ROL-1"
    assert not PlayerSession.objects.exists()


def test_top_up_during_a_hand_is_refused__CSH_3(cashier, floor, shift, table12):
    sessions = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    hand_start(actor=floor, table=table12, seats=[1, 2], now=at(5))
    with pytest.raises(DomainError) as error:
        session_top_up(
            actor=cashier,
            shift=shift,
            session=sessions[0],
            amount_cents=5_000,
            chips_on_table_cents=8_000,
            idempotency_key=key(),
            now=at(6),
        )
    assert (error.value.code, error.value.rule, error.value.status_code) == ("hand_in_progress", "CSH-3", 409)
    assert CashierTransaction.objects.count() == 2
    assert chips(table12) == 20_000
    assert not SessionEvent.objects.filter(kind="top_up").exists()


def test_top_up_below_half_buyin_refused__CSH_5(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    with pytest.raises(DomainError) as error:
        session_top_up(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=2_000,
            chips_on_table_cents=2_950,
            idempotency_key=key(),
            now=at(6),
        )
    assert (error.value.code, error.value.rule) == ("top_up_below_half_buy_in", "CSH-5")
    assert "50.00 EUR" in error.value.message
    assert CashierTransaction.objects.count() == 1
    session = session_top_up(
        actor=cashier,
        shift=shift,
        session=session,
        amount_cents=2_000,
        chips_on_table_cents=3_000,
        idempotency_key=key(),
        now=at(7),
    )
    assert (session.top_up_cents, session.last_counted_cents) == (2_000, 5_000)
    event = SessionEvent.objects.get(kind="top_up")
    assert (event.amount_cents, event.chips_on_table_cents) == (2_000, 3_000)
    assert chips(table12) == 12_000


def test_top_up_past_the_maximum_is_refused__CSH_1(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    with pytest.raises(DomainError) as error:
        session_top_up(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=10_050,
            chips_on_table_cents=20_000,
            idempotency_key=key(),
        )
    assert (error.value.code, error.value.rule) == ("top_up_above_maximum", "CSH-1")
    assert CashierTransaction.objects.count() == 1


def test_partial_cash_out_while_seated_is_refused__CSH_2(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    with pytest.raises(DomainError) as error:
        session_cash_out(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=5_000,
            idempotency_key=key(),
            leaving=False,
        )
    assert (error.value.code, error.value.rule) == ("partial_cash_out", "CSH-2")
    session.refresh_from_db()
    assert session.ended_at is None
    assert chips(table12) == 10_000
    assert CashierTransaction.objects.count() == 1


def test_cash_out_ends_the_session_with_result_and_time_played__CSH_2(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1, minute=1)
    session_top_up(
        actor=cashier,
        shift=shift,
        session=session,
        amount_cents=5_000,
        chips_on_table_cents=6_000,
        idempotency_key=key(),
        now=at(30),
    )
    session = session_cash_out(
        actor=cashier, shift=shift, session=session, amount_cents=12_550, idempotency_key=key(), now=at(91)
    )
    assert (session.buy_in_cents, session.top_up_cents, session.cash_out_cents) == (10_000, 5_000, 12_550)
    assert session.result_cents == -2_450
    assert session.time_played() == timedelta(minutes=90)
    assert chips(table12) == 2_450
    assert list(session.events.values_list("kind", flat=True)) == ["buy_in", "state", "top_up", "cash_out"]
    with pytest.raises(DomainError) as error:
        session_cash_out(
            actor=cashier, shift=shift, session=session, amount_cents=1_000, idempotency_key=key()
        )
    assert error.value.code == "session_ended"


def test_cash_out_while_dealt_in_is_refused__CSH_2(cashier, floor, shift, table12):
    sessions = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    hand_start(actor=floor, table=table12, seats=[1, 2], now=at(5))
    with pytest.raises(DomainError) as error:
        session_cash_out(
            actor=cashier, shift=shift, session=sessions[0], amount_cents=1_000, idempotency_key=key()
        )
    assert error.value.code == "in_hand"
    assert CashierTransaction.objects.filter(kind="cash_out").count() == 0


def test_new_player_is_dealt_in_only_after_the_button_or_posting__CSH_6(
    cashier, floor, shift, table12, player
):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    # The game's first hand is played; the newcomer sits down after it.
    first = hand_start(actor=floor, table=table12, seats=[1, 2], now=at(2))
    hand_end(actor=floor, hand=first, pot_cents=300, now=at(2.5))
    newcomer = buy_in(cashier, shift, table12, player, 10_000, seat=5, minute=3)
    with pytest.raises(DomainError) as error:
        hand_start(actor=floor, table=table12, seats=[1, 2, 5], now=at(5))
    assert (error.value.code, error.value.rule) == ("not_dealable", "CSH-6")
    assert table12.hands.count() == 1
    session_state_change(actor=floor, session=newcomer, action="button_passed", now=at(6))
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 5], now=at(7))
    assert hand.dealt_seats == [1, 2, 5]


def test_player_who_missed_blinds_is_back_only_after_posting__CSH_6(cashier, floor, shift, table12):
    _first, second = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    session_state_change(actor=floor, session=second, action="sit_out", now=at(5))
    session_state_change(actor=floor, session=second, action="missed_blinds", now=at(8))
    with pytest.raises(DomainError) as error:
        session_state_change(actor=floor, session=second, action="back", now=at(9))
    assert (error.value.code, error.value.rule) == ("illegal_seat_state", "CSH-6")
    second.refresh_from_db()
    assert second.state == SeatState.OWES_BLINDS
    session = session_state_change(actor=floor, session=second, action="posted", now=at(10))
    assert session.state == SeatState.PLAYING


def test_less_than_one_big_blind_sits_out_until_top_up__CSH_5(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    session = session_stack_report(actor=floor, session=session, chips_cents=150, now=at(20))
    assert (session.state, session.last_counted_cents) == (SeatState.SITTING_OUT, 150)
    with pytest.raises(DomainError) as error:
        session_state_change(actor=floor, session=session, action="back", now=at(21))
    assert (error.value.code, error.value.rule) == ("short_stack", "CSH-5")
    session = session_top_up(
        actor=cashier,
        shift=shift,
        session=session,
        amount_cents=5_000,
        chips_on_table_cents=150,
        idempotency_key=key(),
        now=at(22),
    )
    assert (session.state, session.last_counted_cents) == (SeatState.PLAYING, 5_150)


def test_change_of_table_moves_the_chips_between_tables(cashier, floor, shift, table12, game12):
    other = make_table(game12, number=5)
    (session,) = seat_players(
        cashier=cashier, floor=floor, shift=shift, table=table12, count=1, amount=20_000
    )
    session = session_move(
        actor=floor, session=session, table=other, seat=3, chips_cents=23_500 - 3_500, now=at(30)
    )
    assert (session.table, session.seat, session.state) == (other, 3, SeatState.WAITING_FOR_BUTTON)
    assert (chips(table12), chips(other)) == (0, 20_000)
    event = session.events.get(kind="move")
    assert event.detail == "table 1 seat 1 -> table 5 seat 3"
    assert [entry.amount_cents for entry in event.posting.entries.order_by("pk")] == [20_000, -20_000]


def test_change_of_table_cannot_take_more_than_the_table_holds(cashier, floor, shift, table12, game12):
    other = make_table(game12, number=5)
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    with pytest.raises(DomainError) as error:
        session_move(actor=floor, session=session, table=other, seat=3, chips_cents=10_050)
    assert error.value.code == "chips_exceed_table"
    session.refresh_from_db()
    assert session.table == table12 and chips(table12) == 10_000


def test_change_of_seat_at_the_same_table(cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    session = session_move(actor=floor, session=session, table=table12, seat=9, now=at(3))
    assert (session.seat, session.state) == (9, SeatState.PLAYING)
    assert chips(table12) == 10_000
    assert HandStatus.IN_PROGRESS not in table12.hands.values_list("status", flat=True)
