"""Making change in chips (CHP-2): the chips the cage hands out for a buy-in and takes back at a
cash-out make the amount exactly, from the chips there are, the same way every time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker.change import chips_for
from poker.common import PokerError

# The house's cash chips in cents: 0.50, 1, 2, 5, 25, 100 and 500 EUR.
CASH = (50, 100, 200, 500, 2500, 10000, 50000)
PLENTY = dict.fromkeys(CASH)


def test_a_buy_in_comes_as_a_playable_stack__CHP_2() -> None:
    assert chips_for(20_000, PLENTY, stack=True) == {2500: 8}
    assert chips_for(150_050, PLENTY, stack=True) == {10000: 15, 50: 1}
    assert chips_for(1_250, PLENTY, stack=True) == {200: 6, 50: 1}
    # Below four of the smallest chip there is no stack: the largest chips that fit.
    assert chips_for(150, PLENTY, stack=True) == {100: 1, 50: 1}


def test_a_cash_out_takes_the_largest_chips_first__CHP_2() -> None:
    assert chips_for(20_000, PLENTY) == {10000: 2}
    assert chips_for(150_050, PLENTY) == {50000: 3, 50: 1}


def test_the_stock_limits_the_chips_and_larger_ones_make_up_the_rest__CHP_2() -> None:
    # Two green chips only: the rest of the 200.00 EUR comes in black.
    assert chips_for(20_000, {2500: 2, 10000: 5}, stack=True) == {10000: 2}
    assert chips_for(20_000, {500: 10, 2500: 2, 10000: 5}, stack=True) == {2500: 2, 500: 10, 10000: 1}
    # Greedy would take the 5.00 chip and be stuck; backing off finds three 2.00 chips.
    assert chips_for(600, {500: 1, 200: 3}) == {200: 3}


def test_an_amount_the_stock_cannot_make_is_none__CHP_2() -> None:
    assert chips_for(25, PLENTY) is None  # below the smallest chip
    assert chips_for(20_000, {10000: 1}) is None  # too few chips
    assert chips_for(0, {}) == {}


def test_bad_input_is_refused__CHP_2() -> None:
    with pytest.raises(PokerError):
        chips_for(-50, PLENTY)
    with pytest.raises(PokerError):
        chips_for(50, {0: 3})
    with pytest.raises(PokerError):
        chips_for(50, {50: -1})


def sums_of(stock) -> set[int]:
    """Every amount some of the stock's chips make."""
    sums = {0}
    for value, count in stock.items():
        sums = {made + value * taken for made in sums for taken in range(count + 1)}
    return sums


stocks = st.dictionaries(st.sampled_from(CASH), st.integers(min_value=0, max_value=6), min_size=1)


@given(stock=stocks, amount=st.integers(min_value=0, max_value=150_000).map(lambda n: n - n % 50))
def test_a_breakdown_is_exact_within_the_stock_and_found_whenever_one_exists__CHP_2(stock, amount) -> None:
    for stack in (False, True):
        found = chips_for(amount, stock, stack=stack)
        assert (found is not None) == (amount in sums_of(stock))
        if found is not None:
            assert sum(value * count for value, count in found.items()) == amount
            assert all(0 < count <= stock[value] for value, count in found.items())
            assert chips_for(amount, dict(reversed(list(stock.items()))), stack=stack) == found
