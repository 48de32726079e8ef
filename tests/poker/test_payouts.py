"""Payout amounts and tables, finishing places, ICM and chip chop (TRN-10)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.payouts import (
    Finish,
    chip_chop,
    default_payout_percentages,
    finishing_places,
    icm_deal,
    icm_equities,
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


def test_icm_equal_stacks_share_equally__TRN_10() -> None:
    assert icm_equities([100, 100, 100], [5_000, 3_000, 2_000]) == [3_334, 3_333, 3_333]


def test_icm_matches_hand_computed_three_player_example__TRN_10() -> None:
    # Stacks 50/30/20, prizes 70/30. P(A 1st)=.5; P(A 2nd)=.3*50/70 + .2*50/80.
    stacks, prizes = [50, 30, 20], [7_000, 3_000]
    a = (
        Fraction(1, 2) * 7_000
        + (Fraction(3, 10) * Fraction(50, 70) + Fraction(2, 10) * Fraction(50, 80)) * 3_000
    )
    result = icm_equities(stacks, prizes)
    assert sum(result) == 10_000
    assert abs(result[0] - a) < 1
    assert result[0] > result[1] > result[2]


def test_icm_heads_up_is_chip_proportional__TRN_10() -> None:
    # 3:1 in chips: A wins 75 % of the time -> .75 * 100 + .25 * 60 = 90 EUR.
    assert icm_equities([3_000, 1_000], [10_000, 6_000]) == [9_000, 7_000]


def test_icm_nine_players__TRN_10() -> None:
    stacks = [12_000, 30_500, 8_000, 44_000, 17_250, 5_500, 60_000, 23_000, 9_750]
    prizes = [400_000, 250_000, 150_000, 100_000, 80_000, 60_000, 40_000, 30_000, 20_000]
    result = icm_equities(stacks, prizes)
    assert sum(result) == sum(prizes)
    by_stack = sorted(range(9), key=lambda i: stacks[i])
    assert [result[i] for i in by_stack] == sorted(result)  # more chips, more equity


@settings(max_examples=60, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 100_000), min_size=1, max_size=6),
    data=st.data(),
)
def test_icm_sums_to_prizes_and_stays_between_min_and_max__TRN_10(
    stacks: list[int], data: st.DataObject
) -> None:
    prizes = sorted(
        data.draw(st.lists(st.integers(0, 10**7), min_size=1, max_size=len(stacks))), reverse=True
    )
    result = icm_equities(stacks, prizes)
    assert sum(result) == sum(prizes)
    low = prizes[-1] if len(prizes) == len(stacks) else 0
    assert all(low <= r <= prizes[0] for r in result)


def test_chip_chop_proportional__TRN_10() -> None:
    assert chip_chop([60_000, 30_000, 10_000], 1_000_000, 100) == [600_000, 300_000, 100_000]


def test_chip_chop_remainders__TRN_10() -> None:
    # 10 EUR for three equal stacks in 0.50 chips: 3.33 each, rounded down to 3.00; the 1.00 left
    # goes to the chip leader, the first listed on a tie (the rule of the payouts).
    assert chip_chop([10, 10, 10], 1_000, 50) == [400, 300, 300]
    # A pool that is not whole chips: the odd cents go to the chip leader too.
    assert chip_chop([10, 30], 1_010, 50) == [250, 760]


def assert_deal_in_chips(shares: list[int], exact: list[Fraction], stacks: list[int], total: int, chip: int):
    """Every share but the chip leader's is its exact share rounded down to the chip; the leader
    takes the rest, so the shares sum to the total and his is the largest."""
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    assert sum(shares) == total
    for i, (share, value) in enumerate(zip(shares, exact, strict=True)):
        if i != leader:
            assert share % chip == 0 and value - chip < share <= value
    assert shares[leader] == max(shares) and shares[leader] >= exact[leader]


@settings(max_examples=200)
@given(
    stacks=st.lists(st.integers(0, 10**6), min_size=1, max_size=10).filter(lambda s: sum(s) > 0),
    pool=st.integers(0, 10**9),
    chip=st.sampled_from([1, 50, 100, 500]),
)
def test_chip_chop_sums_to_pool__TRN_10(stacks: list[int], pool: int, chip: int) -> None:
    shares = chip_chop(stacks, pool, chip)
    exact = [Fraction(pool * stack, sum(stacks)) for stack in stacks]
    assert_deal_in_chips(shares, exact, stacks, pool, chip)


def test_icm_deal_pays_whole_chips_remainder_to_chip_leader__TRN_10() -> None:
    # 500,000 chips; 500/300/200 EUR left. ICM: 412.38, 338.33, 249.29 EUR; rounded down to
    # 0.50 EUR chips 412.00, 338.00, 249.00 and the 1.00 EUR left to the chip leader.
    stacks, prizes = [300_000, 150_000, 50_000], [50_000, 30_000, 20_000]
    assert icm_equities(stacks, prizes) == [41_238, 33_833, 24_929]
    assert icm_deal(stacks, prizes, 50) == [41_300, 33_800, 24_900]
    # The leader need not be listed first.
    assert icm_deal([50_000, 300_000, 150_000], prizes, 50) == [24_900, 41_300, 33_800]
    # Heads-up 3:1 is chip-proportional; whole chips already: nothing moves.
    assert icm_deal([3_000, 1_000], [10_000, 6_000], 50) == [9_000, 7_000]


@settings(max_examples=60, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 100_000), min_size=1, max_size=6),
    chip=st.sampled_from([1, 50, 100, 500]),
    data=st.data(),
)
def test_icm_deal_sums_to_prizes_in_whole_chips__TRN_10(
    stacks: list[int], chip: int, data: st.DataObject
) -> None:
    prizes = sorted(
        data.draw(st.lists(st.integers(0, 10**7), min_size=1, max_size=len(stacks))), reverse=True
    )
    shares = icm_deal(stacks, prizes, chip)
    exact = [Fraction(e) for e in icm_equities(stacks, prizes)]
    # Against the cent-rounded equities, a non-leader's share is within one chip (and one cent).
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    assert sum(shares) == sum(prizes)
    for i, share in enumerate(shares):
        if i != leader:
            assert share % chip == 0 and exact[i] - chip - 1 < share <= exact[i] + 1
    assert shares[leader] == max(shares)
