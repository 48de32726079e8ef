"""The big blind ante (SER-5): posted before the big blind, never reduced at a short table, and a
player short of both posts the ante first."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker.antes import BigBlindAntePost, big_blind_ante_post
from poker.common import PokerError
from poker.payouts import shared_prizes


@pytest.mark.parametrize(
    ("stack", "players", "expected"),
    [
        (10_000, 9, BigBlindAntePost(ante=400, big_blind=400)),  # covers both
        (10_000, 2, BigBlindAntePost(ante=400, big_blind=400)),  # heads-up: the same ante
        (800, 4, BigBlindAntePost(ante=400, big_blind=400)),  # exactly both: all in
        (600, 6, BigBlindAntePost(ante=400, big_blind=200)),  # short: ante first, 200 live
        (400, 9, BigBlindAntePost(ante=400, big_blind=0)),  # only the ante
        (250, 3, BigBlindAntePost(ante=250, big_blind=0)),  # not even the ante: all of it to the ante
        (0, 5, BigBlindAntePost(ante=0, big_blind=0)),
    ],
)
def test_big_blind_ante_exact_cases__SER_5(stack, players, expected):
    # Level 200/400 with a 400 big blind ante.
    posted = big_blind_ante_post(stack=stack, big_blind=400, ante=400, players_dealt=players)
    assert posted == expected
    assert posted.total == min(stack, 800)


@given(
    stack=st.integers(0, 10**9),
    big_blind=st.integers(1, 10**7),
    ante=st.integers(0, 10**7),
    players=st.integers(2, 10),
    fewer=st.integers(2, 10),
)
def test_big_blind_ante_properties__SER_5(stack, big_blind, ante, players, fewer):
    posted = big_blind_ante_post(stack=stack, big_blind=big_blind, ante=ante, players_dealt=players)
    # Never more than he has, and all he has when short of both.
    assert posted.total == min(stack, ante + big_blind)
    # The ante first: no chip goes to the big blind until the ante is whole.
    assert posted.ante == min(stack, ante)
    assert posted.big_blind == 0 or posted.ante == ante
    assert 0 <= posted.big_blind <= big_blind
    # Never reduced at a short table: the number of players dealt in changes nothing.
    assert big_blind_ante_post(stack=stack, big_blind=big_blind, ante=ante, players_dealt=fewer) == posted


def test_big_blind_ante_bad_input_refused__SER_5():
    for kwargs in (
        {"stack": -1, "big_blind": 400, "ante": 400, "players_dealt": 9},
        {"stack": 100, "big_blind": 0, "ante": 400, "players_dealt": 9},
        {"stack": 100, "big_blind": 400, "ante": -5, "players_dealt": 9},
        {"stack": 100, "big_blind": 400, "ante": 400, "players_dealt": 1},
    ):
        with pytest.raises(PokerError) as error:
            big_blind_ante_post(**kwargs)
        assert error.value.rule == "SER-5"


def test_equal_stacks_share_their_places_prizes__SER_3():
    # Places 3 and 4 pay 144.00 and 0; a and c had equal stacks, e more: e keeps place 2's.
    prizes = [36_000, 21_600, 14_400]
    shares = shared_prizes(
        finishes=[("e", 2, 9_000), ("a", 3, 5_000), ("c", 4, 5_000)],
        prize_of_place=prizes,
        smallest_chip_cents=50,
    )
    assert shares == {"e": 21_600, "a": 7_200, "c": 7_200}
    # An odd split: 100.50 + 50.00 in 0.50 chips is 75.00 each and 0.50 to the better place.
    shares = shared_prizes(
        finishes=[("x", 1, 10), ("y", 2, 10)], prize_of_place=[10_050, 5_000], smallest_chip_cents=50
    )
    assert shares == {"x": 7_550, "y": 7_500}


@given(
    prizes=st.lists(st.integers(0, 10**8), min_size=1, max_size=12),
    stacks=st.lists(st.integers(1, 5), min_size=1, max_size=12),
    chip=st.sampled_from([1, 50, 100, 500]),
)
def test_shared_prizes_sum_to_the_places_prizes__SER_3(prizes, stacks, chip):
    finishes = [(n, n + 1, stack) for n, stack in enumerate(stacks)]
    shares = shared_prizes(finishes=finishes, prize_of_place=prizes, smallest_chip_cents=chip)
    assert sum(shares.values()) == sum(prizes[: len(stacks)])
    # Equal stacks get equal shares, but for the remainder to the best-placed of them.
    for stack in set(stacks):
        tied = sorted(shares[n] for n, _p, s in finishes if s == stack)
        assert tied[-1] - tied[0] < chip * len(tied) or len(tied) == 1
