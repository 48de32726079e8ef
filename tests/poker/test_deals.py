"""Deals at the final table: ICM equities, ICM and chip-chop shares in whole chips, and the
choice between them over the prizes left (TRN-10)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.deals import ICM_MAX_PLAYERS, chip_chop, deal_shares, icm_deal, icm_equities


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


@pytest.mark.parametrize(
    ("method", "shares"),
    [
        # ICM over the places the players left would take: 412.38, 338.33, 249.29 EUR of equity,
        # in 0.50 EUR chips with the remainder to the chip leader.
        ("icm", [41_300, 33_800, 24_900]),
        # A chip chop of the prizes left, in proportion to the stacks.
        ("chip_chop", [60_000, 30_000, 10_000]),
    ],
)
def test_deal_shares_by_icm_or_chip_chop__TRN_10(method: str, shares: list[int]) -> None:
    # Places 1-3 pay 500/300/200 EUR; the 4th place (100 EUR) went to a finished player.
    assert (
        deal_shares(
            method=method,
            stacks=[300_000, 150_000, 50_000],
            places_left=[50_000, 30_000, 20_000],
            prizes_left_cents=100_000,
            smallest_chip_cents=50,
        )
        == shares
    )


def test_icm_deal_refused_when_a_prize_would_be_lost__TRN_10() -> None:
    # Four places still unpaid for three players: ICM would share 1 000 EUR of 1 100 left.
    with pytest.raises(PokerError) as error:
        deal_shares(
            method="icm",
            stacks=[300_000, 150_000, 50_000],
            places_left=[50_000, 30_000, 20_000, 10_000],
            prizes_left_cents=110_000,
            smallest_chip_cents=50,
        )
    assert (error.value.code, error.value.rule) == ("deal_places", "TRN-10")


def test_icm_deal_offered_for_ten_players_or_fewer__TRN_10() -> None:
    players = ICM_MAX_PLAYERS + 1
    with pytest.raises(PokerError) as error:
        deal_shares(
            method="icm",
            stacks=[1_000] * players,
            places_left=[1_000] * players,
            prizes_left_cents=1_000 * players,
            smallest_chip_cents=50,
        )
    assert (error.value.code, ICM_MAX_PLAYERS) == ("icm_too_many", 10)
    # A chip chop has no such bound.
    assert deal_shares(
        method="chip_chop",
        stacks=[1_000] * players,
        places_left=[],
        prizes_left_cents=1_150,
        smallest_chip_cents=50,
    ) == [150, *[100] * 10]


def test_deal_by_an_unknown_method_refused__TRN_10() -> None:
    with pytest.raises(PokerError) as error:
        deal_shares(
            method="custom", stacks=[1, 1], places_left=[2, 1], prizes_left_cents=3, smallest_chip_cents=1
        )
    assert error.value.code == "deal_method"
