"""Blinds, straddle, bet limits and the full bet rule (BET-1..BET-4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.betting import (
    BettingRound,
    BlindSeats,
    Limit,
    Street,
    blind_seats,
    check_bet,
    fixed_limit_bet_size,
    max_raise_to,
    min_raise_to,
    postflop_round,
    preflop_round,
    reopens_betting,
    straddle_amount,
)
from poker.common import PokerError


def test_small_blind_left_of_button_big_blind_next__BET_1() -> None:
    assert blind_seats(button=3, occupied=[1, 3, 5, 8]) == BlindSeats(
        button=3, small_blind=5, big_blind=8, straddle=1
    )


def test_blinds_wrap_around_the_table__BET_1() -> None:
    assert blind_seats(button=8, occupied=[1, 3, 5, 8]) == BlindSeats(8, 1, 3, 5)


def test_heads_up_button_posts_small_blind__BET_1() -> None:
    assert blind_seats(button=6, occupied=[2, 6]) == BlindSeats(
        button=6, small_blind=6, big_blind=2, straddle=None
    )


def test_button_must_be_seated__BET_1() -> None:
    with pytest.raises(PokerError):
        blind_seats(button=4, occupied=[1, 2, 3])


def test_straddle_is_two_big_blinds_left_of_big_blind__BET_4() -> None:
    assert straddle_amount(200) == 400
    assert blind_seats(button=1, occupied=[1, 2, 3, 4, 5]).straddle == 4
    # Three-handed, the seat left of the big blind is the button.
    assert blind_seats(button=1, occupied=[1, 2, 3]).straddle == 1


def test_straddle_acts_as_the_largest_blind__BET_4() -> None:
    state = preflop_round(limit=Limit.NO_LIMIT, small_blind=100, big_blind=200, straddle=True)
    assert state.current_bet == 400
    assert state.pot == 700
    assert min_raise_to(state, player_bet=0, player_stack=10_000) == 800


def test_no_limit_min_raise_is_last_raise_size__BET_2() -> None:
    state = preflop_round(limit=Limit.NO_LIMIT, small_blind=1, big_blind=2)
    assert min_raise_to(state, player_bet=0, player_stack=1000) == 4
    # Raise to 10 (a raise of 8): the next minimum is to 18.
    state = state.after_bet(player_bet=0, to=10)
    assert min_raise_to(state, player_bet=2, player_stack=1000) == 18
    assert max_raise_to(state, player_bet=2, player_stack=998) == 1000


def test_no_limit_first_bet_at_least_big_blind__BET_2() -> None:
    state = postflop_round(limit=Limit.NO_LIMIT, street=Street.FLOP, big_blind=2, pot=20)
    assert min_raise_to(state, player_bet=0, player_stack=100) == 2
    state = state.after_bet(player_bet=0, to=15)
    assert min_raise_to(state, player_bet=0, player_stack=100) == 30


def test_short_stack_may_go_all_in_below_minimum__BET_2() -> None:
    state = preflop_round(limit=Limit.NO_LIMIT, small_blind=1, big_blind=2).after_bet(player_bet=0, to=10)
    assert min_raise_to(state, player_bet=0, player_stack=15) == 15
    check_bet(state, player_bet=0, player_stack=15, to=15)  # all-in for less: legal
    with pytest.raises(PokerError) as raised:
        check_bet(state, player_bet=0, player_stack=100, to=15)
    assert raised.value.rule == "BET-2"


def test_cannot_raise_without_chips_beyond_the_call__BET_2() -> None:
    state = preflop_round(limit=Limit.NO_LIMIT, small_blind=1, big_blind=2).after_bet(player_bet=0, to=10)
    assert min_raise_to(state, player_bet=0, player_stack=10) is None
    assert max_raise_to(state, player_bet=0, player_stack=8) is None


def test_pot_limit_max_raise_is_pot_including_the_call__BET_2() -> None:
    # Blinds 1/2, pot 3: under the gun calls 2 (pot 5) and raises 5 -> to 7.
    state = preflop_round(limit=Limit.POT_LIMIT, small_blind=1, big_blind=2)
    assert max_raise_to(state, player_bet=0, player_stack=1000) == 7
    # He raises to 7 (pot 10). The small blind (1 in) calls 6 -> pot 16 -> raises to 7 + 16 = 23.
    state = state.after_bet(player_bet=0, to=7)
    assert max_raise_to(state, player_bet=1, player_stack=1000) == 23
    assert min_raise_to(state, player_bet=1, player_stack=1000) == 12


def test_pot_limit_postflop_bet_is_the_pot__BET_2() -> None:
    state = postflop_round(limit=Limit.POT_LIMIT, street=Street.TURN, big_blind=2, pot=50)
    assert max_raise_to(state, player_bet=0, player_stack=1000) == 50
    assert max_raise_to(state, player_bet=0, player_stack=30) == 30  # table stakes
    with pytest.raises(PokerError):
        check_bet(state, player_bet=0, player_stack=1000, to=51)


def test_fixed_limit_small_and_big_bet__BET_2() -> None:
    assert fixed_limit_bet_size(Street.PREFLOP, 200) == 200
    assert fixed_limit_bet_size(Street.FLOP, 200) == 200
    assert fixed_limit_bet_size(Street.TURN, 200) == 400
    assert fixed_limit_bet_size(Street.RIVER, 200) == 400
    state = postflop_round(limit=Limit.FIXED_LIMIT, street=Street.TURN, big_blind=200, pot=2000)
    assert min_raise_to(state, player_bet=0, player_stack=10_000) == 400
    assert max_raise_to(state, player_bet=0, player_stack=10_000) == 400


def test_fixed_limit_cap_three_raises__BET_2() -> None:
    state = postflop_round(limit=Limit.FIXED_LIMIT, street=Street.FLOP, big_blind=200, pot=1000)
    state = state.after_bet(player_bet=0, to=200)  # bet
    for raise_to in (400, 600, 800):  # raise, re-raise, cap
        assert max_raise_to(state, player_bet=0, player_stack=10_000) == raise_to
        state = state.after_bet(player_bet=0, to=raise_to)
    assert state.raises == 3
    assert min_raise_to(state, player_bet=0, player_stack=10_000) is None
    with pytest.raises(PokerError):
        check_bet(state, player_bet=0, player_stack=10_000, to=1000)
    check_bet(state, player_bet=0, player_stack=10_000, to=800)  # calling the cap is fine


def test_fixed_limit_preflop_cap_counts_raises_over_the_blind__BET_2() -> None:
    state = preflop_round(limit=Limit.FIXED_LIMIT, small_blind=100, big_blind=200)
    for raise_to in (400, 600, 800):
        state = state.after_bet(player_bet=0, to=raise_to)
    assert min_raise_to(state, player_bet=0, player_stack=10_000) is None


def test_short_all_in_does_not_reopen_betting__BET_3() -> None:
    # A bets 100, B calls, C all-in raises to 150 (short of the full 100 raise).
    state = postflop_round(limit=Limit.NO_LIMIT, street=Street.FLOP, big_blind=20, pot=300)
    state = state.after_bet(player_bet=0, to=100)
    full = state.full_raise()
    state = state.after_bet(player_bet=0, to=150)
    assert state.last_raise == 100  # the short all-in does not change the minimum raise
    assert not reopens_betting(bet_faced_when_acted=100, current_bet=150, full_raise=full)
    # Anyone who has not acted yet may still raise, to at least 250.
    assert min_raise_to(state, player_bet=0, player_stack=1000) == 250


def test_full_all_in_raise_reopens_betting__BET_3() -> None:
    assert reopens_betting(bet_faced_when_acted=100, current_bet=200, full_raise=100)


def test_short_all_ins_adding_up_to_a_full_raise_reopen__BET_3() -> None:
    # A bets 100; B all-in to 150; C all-in to 210: A faces 110 more, at least a full raise.
    assert reopens_betting(bet_faced_when_acted=100, current_bet=210, full_raise=100)


def test_half_a_raise_all_in_reopens_only_with_the_half_bet_rule__BET_3() -> None:
    # A bets 100 on the flop; B is all-in to 150: half a full raise (50 of 100).
    state = postflop_round(limit=Limit.NO_LIMIT, street=Street.FLOP, big_blind=20, pot=300)
    state = state.after_bet(player_bet=0, to=100)
    full = state.full_raise()
    state = state.after_bet(player_bet=0, to=150)
    assert (full, state.current_bet, state.last_raise) == (100, 150, 100)
    assert not reopens_betting(bet_faced_when_acted=100, current_bet=150, full_raise=full)
    assert reopens_betting(bet_faced_when_acted=100, current_bet=150, full_raise=full, half_bet_rule=True)
    # Reopened or not, A's minimum raise is to 250: the short all-in set no new raise size.
    assert min_raise_to(state, player_bet=100, player_stack=1000) == 250


def test_less_than_half_a_raise_never_reopens__BET_3() -> None:
    for half_bet_rule in (False, True):
        assert not reopens_betting(
            bet_faced_when_acted=100, current_bet=149, full_raise=100, half_bet_rule=half_bet_rule
        )
        assert reopens_betting(
            bet_faced_when_acted=100, current_bet=200, full_raise=100, half_bet_rule=half_bet_rule
        )
    # An odd full raise: 25 of a 51 raise is under half, 26 is over it.
    assert not reopens_betting(bet_faced_when_acted=51, current_bet=76, full_raise=51, half_bet_rule=True)
    assert reopens_betting(bet_faced_when_acted=51, current_bet=77, full_raise=51, half_bet_rule=True)


def test_fixed_limit_half_bet_all_in_reopens_with_the_option__BET_3() -> None:
    # Fixed limit 2/4 on the turn (big bet 8): A bets 8, B all-in for 12 (half a big bet more).
    state = postflop_round(limit=Limit.FIXED_LIMIT, street=Street.TURN, big_blind=4, pot=40)
    state = state.after_bet(player_bet=0, to=8)
    full = state.full_raise()
    state = state.after_bet(player_bet=0, to=12)
    assert (full, state.current_bet, state.raises) == (8, 12, 0)
    assert not reopens_betting(bet_faced_when_acted=8, current_bet=12, full_raise=full)
    assert reopens_betting(bet_faced_when_acted=8, current_bet=12, full_raise=full, half_bet_rule=True)


@settings(max_examples=200)
@given(
    limit=st.sampled_from(list(Limit)),
    street=st.sampled_from([Street.FLOP, Street.TURN, Street.RIVER]),
    bb=st.integers(1, 500),
    pot=st.integers(0, 100_000),
    bets=st.lists(st.integers(1, 5_000), max_size=6),
    stack=st.integers(0, 50_000),
)
def test_min_raise_never_exceeds_max_raise__BET_2(
    limit: Limit, street: Street, bb: int, pot: int, bets: list[int], stack: int
) -> None:
    state: BettingRound = postflop_round(limit=limit, street=street, big_blind=bb, pot=pot)
    for bet in bets:
        low = min_raise_to(state, player_bet=0, player_stack=10**9)
        if low is None:
            break
        state = state.after_bet(player_bet=0, to=state.current_bet + max(bet, low - state.current_bet))
    low = min_raise_to(state, player_bet=0, player_stack=stack)
    high = max_raise_to(state, player_bet=0, player_stack=stack)
    assert (low is None) == (high is None)
    if low is not None and high is not None:
        assert state.current_bet < low <= high <= stack
        check_bet(state, player_bet=0, player_stack=stack, to=low)
        check_bet(state, player_bet=0, player_stack=stack, to=high)
