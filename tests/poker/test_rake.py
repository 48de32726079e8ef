"""Rake and jackpot drop per hand (RAK-1..RAK-4, JKP-1, JKP-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.rake import jackpot_drop_for_hand, jackpot_hand_eligible, rake_for_pot

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
