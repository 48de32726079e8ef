"""A new game's first hand (CSH-6, HND-2): when a table opens nobody owes a blind yet, so every
player seated with chips and not sitting out is dealt in without a "posted" tap, the button is
drawn and the blinds are posted in the hand. CSH-6 holds for whoever sits down after that hand.
A second hand while one is open is refused under its rule (RAK-1)."""

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import Hand, PlayerSession, SeatState, SessionEvent
from cashgame.selectors.dealing import dealer_state, table_game_is_new
from cashgame.services.hands import hand_end, hand_flop, hand_start, hand_void
from cashgame.services.sessions import (
    session_buy_in,
    session_cash_out,
    session_seat,
    session_state_change,
)
from cashgame.services.tables import table_close, table_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import at, key
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def buy_in(cashier, shift, table, seat, *, minute=1, amount=10_000) -> PlayerSession:
    return session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=PlayerFactory(id_verified_at=at(0)),
        seat=seat,
        amount_cents=amount,
        idempotency_key=key(),
        now=at(minute),
    )


def states(table) -> dict[int, str]:
    return dict(PlayerSession.objects.filter(table=table, ended_at__isnull=True).values_list("seat", "state"))


def written() -> tuple[int, ...]:
    return (
        Hand.objects.count(),
        SessionEvent.objects.count(),
        AuditRecord.objects.count(),
        PlayerSession.objects.filter(state=SeatState.PLAYING).count(),
    )


def test_new_games_first_hand_deals_in_three_new_players_without_posting__CSH_6_HND_2(
    cashier, floor, shift, table12
):
    for seat in (2, 4, 7):
        buy_in(cashier, shift, table12, seat)
    assert states(table12) == {2: "waiting_for_button", 4: "waiting_for_button", 7: "waiting_for_button"}
    hand = hand_start(actor=floor, table=table12, seats=[2, 4, 7], button_seat=4, now=at(5))
    # The button is where the draw put it; the blinds are posted in the hand, nothing is dead.
    assert (hand.number, hand.dealt_seats, hand.button_seat, hand.players_dealt, hand.dead_cents) == (
        1,
        [2, 4, 7],
        4,
        3,
        0,
    )
    assert states(table12) == {2: "playing", 4: "playing", 7: "playing"}
    events = SessionEvent.objects.filter(kind="state").order_by("session__seat")
    assert [(e.session.seat, e.detail, e.at) for e in events] == [
        (seat, "first hand of the game (hand 1): playing", at(5)) for seat in (2, 4, 7)
    ]
    audits = AuditRecord.objects.filter(action="cashgame.session_state").order_by("pk")
    assert [(a.actor, a.before, a.after) for a in audits] == [
        (floor, {"state": "waiting_for_button"}, {"state": "playing", "action": "first_hand", "hand": 1})
    ] * 3
    # The hand plays out as any other: 5 % of 60.00 is 3.00 (RAK-3); three dealt in, no drop (JKP-1).
    hand_flop(actor=floor, hand=hand, now=at(6))
    hand = hand_end(actor=floor, hand=hand, pot_cents=6_000, now=at(7))
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (300, 0)
    assert books_problems() == []


def test_a_player_who_sits_down_after_the_first_hand_waits_for_the_button__CSH_6(
    cashier, floor, shift, table12
):
    for seat in (1, 2, 3):
        buy_in(cashier, shift, table12, seat)
    first = hand_start(actor=floor, table=table12, seats=[1, 2, 3], button_seat=1, now=at(5))
    late = buy_in(cashier, shift, table12, 6, minute=6)  # during the first hand
    hand_end(actor=floor, hand=first, pot_cents=600, now=at(8))
    assert table_game_is_new(table=table12) is False
    before = written()
    with pytest.raises(DomainError) as error:
        hand_start(actor=floor, table=table12, seats=[1, 2, 3, 6], button_seat=2, now=at(9))
    assert (error.value.code, error.value.rule, error.value.status_code) == ("not_dealable", "CSH-6", 409)
    assert error.value.message == "Seat 6 is new and waits for the button to pass (or posts)."
    assert written() == before and states(table12)[6] == "waiting_for_button"
    # The tablet and the dealer page deal in the three in play only.
    state = dealer_state(table=table12)
    assert [row["seat"] for row in state["seats"] if row["playing"]] == [1, 2, 3]
    assert (state["new_game"], state["button_draw"], state["next_button"]) == (False, False, 2)
    # He posts (a new player's post is live, not dead money: POT-4 is for missed blinds).
    session_state_change(actor=floor, session=late, action="posted", now=at(10))
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 6], button_seat=2, now=at(11))
    assert (hand.dealt_seats, hand.dead_cents) == ([1, 2, 3, 6], 0)


def test_first_hand_never_deals_in_a_seat_without_chips_or_a_player_sitting_out__CSH_1_CSH_5(
    cashier, floor, shift, table12
):
    for seat in (1, 2, 3):
        buy_in(cashier, shift, table12, seat)
    session_seat(actor=floor, table=table12, player=PlayerFactory(), seat=5, now=at(2))
    out = PlayerSession.objects.get(table=table12, seat=3)
    session_state_change(actor=floor, session=out, action="sit_out", now=at(3))
    before = written()
    for seats, seat, rule in (([1, 2, 5], 5, "CSH-1"), ([1, 2, 3], 3, "CSH-5")):
        with pytest.raises(DomainError) as error:
            hand_start(actor=floor, table=table12, seats=seats, button_seat=1, now=at(4))
        assert (error.value.code, error.value.rule) == ("not_dealable", rule)
        assert error.value.message.startswith(f"Seat {seat} ")
    # Nothing written: no hand, and the two waiting players still wait (no state changed).
    assert written() == before
    assert states(table12) == {
        1: "waiting_for_button",
        2: "waiting_for_button",
        3: "sitting_out",
        5: "awaiting_buy_in",
    }
    assert [row["seat"] for row in dealer_state(table=table12)["seats"] if row["playing"]] == [1, 2]


def test_a_voided_first_hand_is_dealt_again_as_the_first_with_the_drawn_button__CSH_6_FLR_1(
    cashier, floor, shift, table12
):
    for seat in (1, 2, 3):
        buy_in(cashier, shift, table12, seat)
    state = dealer_state(table=table12)
    assert (state["new_game"], state["button_draw"], state["next_button"], state["playing_count"]) == (
        True,
        True,
        None,
        3,
    )
    misdeal = hand_start(actor=floor, table=table12, seats=[1, 2, 3], button_seat=3, now=at(5))
    hand_void(actor=floor, hand=misdeal, reason="misdeal", now=at(6))
    late = buy_in(cashier, shift, table12, 5, minute=7)  # no blind was taken yet: still the first hand
    state = dealer_state(table=table12)
    assert (state["new_game"], state["button_draw"], state["next_button"], state["playing_count"]) == (
        True,
        False,
        3,
        4,
    )
    again = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 5], button_seat=3, now=at(8))
    assert (again.number, again.dealt_seats, again.button_seat) == (2, [1, 2, 3, 5], 3)
    late.refresh_from_db()
    assert late.state == SeatState.PLAYING


def test_a_table_opened_again_starts_a_new_game__CSH_6(cashier, floor, shift, table12):
    first, second = buy_in(cashier, shift, table12, 1), buy_in(cashier, shift, table12, 2)
    hand_end(
        actor=floor,
        hand=hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=1, now=at(5)),
        pot_cents=300,
        now=at(6),
    )
    for session in (first, second):
        session_cash_out(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=10_000,
            idempotency_key=key(),
            now=at(10),
        )
    table_close(actor=floor, table=table12, now=at(20))
    table_open(actor=floor, table=table12, now=at(30))
    for seat in (3, 4):
        buy_in(cashier, shift, table12, seat, minute=31)
    table12.refresh_from_db()
    assert table_game_is_new(table=table12) is True
    assert dealer_state(table=table12)["button_draw"] is True
    hand = hand_start(actor=floor, table=table12, seats=[3, 4], button_seat=4, now=at(32))
    assert (hand.number, hand.dealt_seats) == (2, [3, 4])
    assert books_problems() == []


def test_a_second_hand_while_one_is_open_is_refused_under_its_rule__RAK_1(
    cashier, floor, shift, table12, api
):
    for seat in (1, 2, 3):
        buy_in(cashier, shift, table12, seat)
    hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=1, now=at(5))
    before = written()
    with pytest.raises(DomainError) as error:
        hand_start(actor=floor, table=table12, seats=[1, 2, 3], button_seat=2, now=at(6))
    assert (error.value.code, error.value.rule, error.value.status_code) == ("hand_in_progress", "RAK-1", 409)
    assert written() == before and states(table12)[3] == "waiting_for_button"
    response = api(floor).post(f"/api/cashgame/tables/{table12.pk}/hands/", {"seats": [1, 2, 3]})
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["rule"]) == ("hand_in_progress", "RAK-1")
    assert written() == before
