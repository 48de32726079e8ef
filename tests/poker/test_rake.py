"""Rake and jackpot drop per hand and per pot (RAK-1..RAK-4, RAK-6, JKP-1, JKP-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.rake import fee_split, jackpot_drop_for_hand, jackpot_hand_eligible, rake_for_pot, rake_split

HOUSE = {"rate_bp": 500, "cap_cents": 500, "rounding_cents": 50}


def rake(pot_cents: int, *, saw_flop: bool = True, voided: bool = False) -> int:
    return rake_for_pot(pot_cents=pot_cents, saw_flop=saw_flop, voided=voided, **HOUSE)


def drop(**overrides: object) -> int:
    hand: dict[str, object] = {
        "pot_cents": 3000,
        "small_blind_cents": 100,
        "big_blind_cents": 200,
        "players_dealt": 6,
        "saw_flop": True,
        "voided": False,
    }
    hand.update(overrides)
    return jackpot_drop_for_hand(**hand)  # type: ignore[arg-type]


def test_cap_applies_to_220_eur_pot__RAK_3() -> None:
    # 5 % of 220 EUR is 11 EUR; the cap is 5 EUR per hand.
    assert rake(22_000) == 500


def test_rake_rounds_down_to_smallest_chip__RAK_3() -> None:
    # 5 % of 18.90 EUR is 0.945 EUR -> down to the 0.50 chip.
    assert rake(1890) == 50
    assert rake(1999) == 50
    assert rake(2000) == 100
    assert rake(999) == 0


def test_rake_is_a_fee_off_the_pot__RAK_1() -> None:
    pot = 6_000
    assert rake(pot) == 300
    assert pot - rake(pot) == 5_700


def test_no_flop_no_drop__RAK_2() -> None:
    assert rake(22_000, saw_flop=False) == 0


def test_voided_hand_pays_no_rake__RAK_4() -> None:
    assert rake(22_000, voided=True) == 0


def test_rate_cap_and_chip_are_per_game__RAK_3() -> None:
    assert (
        rake_for_pot(
            pot_cents=10_000,
            rate_bp=1_000,
            cap_cents=3_000,
            rounding_cents=100,
            saw_flop=True,
            voided=False,
        )
        == 1_000
    )


def test_bad_rake_settings_refused__RAK_3() -> None:
    with pytest.raises(PokerError):
        rake_for_pot(pot_cents=100, rate_bp=500, cap_cents=500, rounding_cents=0, saw_flop=True, voided=False)
    with pytest.raises(PokerError):
        rake_for_pot(
            pot_cents=100,
            rate_bp=10_001,
            cap_cents=500,
            rounding_cents=50,
            saw_flop=True,
            voided=False,
        )


@settings(max_examples=200)
@given(
    pot=st.integers(0, 10_000_000),
    rate=st.integers(0, 10_000),
    cap=st.integers(0, 100_000),
    chip=st.sampled_from([1, 5, 10, 50, 100]),
)
def test_rake_never_exceeds_rate_cap_or_pot__RAK_3(pot: int, rate: int, cap: int, chip: int) -> None:
    taken = rake_for_pot(
        pot_cents=pot, rate_bp=rate, cap_cents=cap, rounding_cents=chip, saw_flop=True, voided=False
    )
    assert 0 <= taken <= min(cap, pot)
    assert taken * 10_000 <= pot * rate
    assert taken == cap or taken % chip == 0


def test_jackpot_drop_at_one_two_with_four_players__JKP_2() -> None:
    assert drop(players_dealt=4) == 100


def test_one_two_table_with_three_dealt_takes_no_drop__JKP_1() -> None:
    assert drop(players_dealt=3) == 0
    assert not jackpot_hand_eligible(
        small_blind_cents=100, big_blind_cents=200, players_dealt=3, voided=False
    )


def test_two_five_table_never_drops__JKP_1() -> None:
    assert drop(small_blind_cents=200, big_blind_cents=500, pot_cents=100_000) == 0
    assert not jackpot_hand_eligible(
        small_blind_cents=200, big_blind_cents=500, players_dealt=9, voided=False
    )


def test_pot_below_20_eur_takes_no_drop__JKP_2() -> None:
    assert drop(pot_cents=1_999) == 0
    assert drop(pot_cents=2_000) == 100


def test_no_jackpot_drop_without_flop__RAK_2() -> None:
    assert drop(saw_flop=False) == 0


def test_no_jackpot_drop_on_voided_hand__RAK_4() -> None:
    assert drop(voided=True) == 0


def test_side_pot_rake_split__RAK_6() -> None:
    # Pots of 15 and 30 EUR: 5 % of 45 EUR is 2.25, down to the 0.50 chip: 2.00 EUR. In
    # proportion 0.67 and 1.33 EUR, each down to the chip: 0.50 and 1.00; the 0.50 left over
    # goes to the largest pot, the side pot.
    assert rake(4_500) == 200
    assert rake_split([1_500, 3_000], 200, 50) == [50, 150]


def test_capped_rake_split_leaves_the_short_all_in_untouched__RAK_6() -> None:
    # 220 EUR in three pots: the rake is capped once per hand at 5 EUR (RAK-3). The 20 EUR main
    # pot's share (0.45 EUR) rounds down to nothing; the remainder goes to the largest pot.
    assert rake(22_000) == 500
    assert rake_split([2_000, 8_000, 12_000], 500, 50) == [0, 150, 350]


def test_remainder_goes_to_the_main_pot_when_it_ties_for_largest__RAK_6() -> None:
    assert rake_split([3_000, 3_000], 150, 50) == [100, 50]


def test_one_pot_pays_the_whole_rake__RAK_6() -> None:
    assert rake_split([4_500], 200, 50) == [200]
    assert rake_split([4_500], 0, 50) == [0]


def test_jackpot_drop_split_like_the_rake__RAK_6_JKP_2() -> None:
    rake_shares, drop_shares = fee_split(
        [2_000, 8_000, 12_000], rake_cents=500, drop_cents=100, chip_cents=50
    )
    assert rake_shares == [0, 150, 350]
    # 1 EUR in proportion: 0.09, 0.36, 0.55 -> 0, 0, 0.50; the 0.50 left to the largest pot.
    assert drop_shares == [0, 0, 100]
    rake_shares, drop_shares = fee_split([1_500, 3_000], rake_cents=200, drop_cents=100, chip_cents=50)
    assert (rake_shares, drop_shares) == ([50, 150], [0, 100])


def test_fee_never_takes_more_than_a_pot_holds__RAK_6() -> None:
    # Degenerate settings (a fee of nearly the whole pot): the largest pot is emptied first,
    # then the next largest, so the shares still sum to the fee.
    assert rake_split([30, 30], 60, 50) == [30, 30]
    # Rake 100 on pots 100 and 40: 71 -> 50 and 28 -> 0, the 50 left to the largest pot, which
    # is then full; the drop of 40 finds room only in the other pot.
    assert fee_split([100, 40], rake_cents=100, drop_cents=40, chip_cents=50) == ([100, 0], [0, 40])


def test_bad_split_input_refused__RAK_6() -> None:
    for pots, total, chip in (([100], 101, 50), ([100], 50, 0), ([], 0, 50), ([-1, 5], 0, 50), ([5], -1, 1)):
        with pytest.raises(PokerError):
            rake_split(pots, total, chip)
    with pytest.raises(PokerError):
        rake_split([100, 100], 10, 5, room_cents=[100])
    with pytest.raises(PokerError):
        rake_split([100], 10, 5, room_cents=[101])


pots_lists = st.lists(st.integers(0, 100_000), min_size=1, max_size=9).filter(lambda pots: sum(pots) > 0)
chips = st.sampled_from([1, 5, 10, 50, 100])


@settings(max_examples=400)
@given(pots=pots_lists, chip=chips, data=st.data())
def test_split_sums_to_the_fee_and_no_pot_pays_more_than_it_holds__RAK_6(
    pots: list[int], chip: int, data: st.DataObject
) -> None:
    total = data.draw(st.integers(0, sum(pots)))
    shares = rake_split(pots, total, chip)
    assert sum(shares) == total
    assert all(0 <= share <= pot for share, pot in zip(shares, pots, strict=True))
    whole, largest = sum(pots), pots.index(max(pots))
    if shares[largest] < pots[largest]:
        # Until the largest pot is full, every other pot pays at most its proportional share,
        # in whole chips, and the largest pot at most the chips the rounding left over on top.
        for index, (share, pot) in enumerate(zip(shares, pots, strict=True)):
            if index != largest:
                assert share * whole <= total * pot and share % chip == 0
        assert shares[largest] * whole < total * pots[largest] + len(pots) * chip * whole


@settings(max_examples=400)
@given(pots=pots_lists, chip=chips, cap=st.integers(0, 2_000), drop=st.integers(0, 200))
def test_house_rake_and_drop_split_in_proportion__RAK_6(
    pots: list[int], chip: int, cap: int, drop: int
) -> None:
    whole = sum(pots)
    total = rake_for_pot(
        pot_cents=whole, rate_bp=500, cap_cents=cap, rounding_cents=chip, saw_flop=True, voided=False
    )
    drop = min(drop, whole - total)
    rake_shares, drop_shares = fee_split(pots, rake_cents=total, drop_cents=drop, chip_cents=chip)
    assert (sum(rake_shares), sum(drop_shares)) == (total, drop)
    largest = pots.index(max(pots))
    for index, pot in enumerate(pots):
        assert rake_shares[index] + drop_shares[index] <= pot
        if index != largest:  # at 5 % the largest pot always has room for the remainder
            assert rake_shares[index] * whole <= total * pot
