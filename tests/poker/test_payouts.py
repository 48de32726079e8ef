"""Payout amounts and tables, finishing places (TRN-10); the deals are test_deals.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.payouts import (
    Finish,
    default_payout_percentages,
    finishing_places,
    payout_amounts,
    places_paid,
)


def test_amounts_round_down_to_chip_remainder_to_first__TRN_10() -> None:
    # 1,234.56 EUR at 50/30/20 with a 1 EUR chip.
    amounts = payout_amounts(
        prize_pool_cents=123_456, percentages=[5_000, 3_000, 2_000], smallest_chip_cents=100
    )
    assert amounts == [61_856, 37_000, 24_600]
    assert sum(amounts) == 123_456


def test_amounts_exact_when_pool_divides__TRN_10() -> None:
    assert payout_amounts(
        prize_pool_cents=100_000, percentages=[5_000, 3_000, 2_000], smallest_chip_cents=500
    ) == [50_000, 30_000, 20_000]


def test_percentages_must_sum_to_100_percent__TRN_10() -> None:
    with pytest.raises(PokerError) as raised:
        payout_amounts(prize_pool_cents=1000, percentages=[5_000, 3_000], smallest_chip_cents=50)
    assert raised.value.rule == "TRN-10"


@settings(max_examples=300)
@given(
    pool=st.integers(0, 10**10),
    weights=st.lists(st.integers(0, 1_000), min_size=1, max_size=60).filter(lambda w: sum(w) > 0),
    chip=st.sampled_from([1, 50, 100, 500, 2_500]),
)
def test_payouts_sum_to_prize_pool__TRN_10(pool: int, weights: list[int], chip: int) -> None:
    total = sum(weights)
    percentages = [w * 10_000 // total for w in weights]
    percentages[0] += 10_000 - sum(percentages)
    amounts = payout_amounts(prize_pool_cents=pool, percentages=percentages, smallest_chip_cents=chip)
    assert sum(amounts) == pool
    assert all(a % chip == 0 for a in amounts[1:])
    assert all(a >= 0 for a in amounts)


def test_default_table_small_fields__TRN_10() -> None:
    assert default_payout_percentages(2) == (10_000,)
    assert default_payout_percentages(7) == (10_000,)
    assert default_payout_percentages(8) == (5_000, 3_000, 2_000)
    assert default_payout_percentages(15) == (5_000, 3_000, 2_000)
    assert len(default_payout_percentages(16)) == 4
    assert len(default_payout_percentages(72)) == 9


@pytest.mark.parametrize("entries", [*range(1, 120), 150, 151, 300, 499, 500, 1000, 3000, 10_000])
def test_default_table_rows_are_valid__TRN_10(entries: int) -> None:
    row = default_payout_percentages(entries)
    assert sum(row) == 10_000
    assert all(a >= b > 0 for a, b in itertools.pairwise(row))
    assert row[0] > 0
    if entries >= 16:
        assert 0.08 <= len(row) / entries <= 0.25  # roughly 10-15 % of the field paid


def test_no_default_table_for_huge_fields__TRN_10() -> None:
    assert places_paid(10_009) == 1_000
    with pytest.raises(PokerError):
        places_paid(10_010)


def test_same_hand_busts_larger_stack_finishes_higher__TRN_10() -> None:
    # Ten players left; three bust in one hand, with 5,000, 12,000 and 800 chips at its start.
    places = finishing_places(players_left_before_hand=10, busted=[("a", 5_000), ("b", 12_000), ("c", 800)])
    assert places == [Finish("b", 8), Finish("a", 9), Finish("c", 10)]


def test_same_hand_equal_stacks_keep_given_order__TRN_10() -> None:
    places = finishing_places(players_left_before_hand=5, busted=[("x", 100), ("y", 100)])
    assert places == [Finish("x", 4), Finish("y", 5)]


def test_single_elimination_gets_next_place__TRN_10() -> None:
    assert finishing_places(players_left_before_hand=2, busted=[("z", 3)]) == [Finish("z", 2)]
    with pytest.raises(PokerError):
        finishing_places(players_left_before_hand=2, busted=[("y", 1), ("z", 3)])
