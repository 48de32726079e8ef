"""Side pots, splits, odd chips, rake off the pot and showdown order (POT-1..POT-3, RAK-1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.pots import (
    Contribution,
    Pot,
    award_pots,
    build_pots,
    showdown_order,
    split_amount,
)


def test_side_pot_example_one__POT_1() -> None:
    # A bets 20, B is all-in for 5, C calls 20.
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    assert breakdown.pots == (Pot(15, ("A", "B", "C")), Pot(30, ("A", "C")))
    assert breakdown.returned == {}


def test_side_pot_example_two__POT_1() -> None:
    # A all-in 50, B calls 50, C raises to 100, D folds (put in nothing), B calls.
    breakdown = build_pots(
        [
            Contribution("A", 50),
            Contribution("B", 100),
            Contribution("C", 100),
            Contribution("D", 0, folded=True),
        ]
    )
    assert breakdown.pots == (Pot(150, ("A", "B", "C")), Pot(100, ("B", "C")))


def test_folded_blind_is_dead_money_in_the_main_pot__POT_1() -> None:
    # Same hand, but D had posted a blind of 2 before folding: dead money, D eligible for nothing.
    breakdown = build_pots(
        [
            Contribution("A", 50),
            Contribution("B", 100),
            Contribution("C", 100),
            Contribution("D", 2, folded=True),
        ]
    )
    assert breakdown.pots == (Pot(152, ("A", "B", "C")), Pot(100, ("B", "C")))


def test_folded_chips_reach_every_pot_they_cover__POT_1() -> None:
    # D put in 70 before folding: 50 into the main pot, 20 into the side pot.
    breakdown = build_pots(
        [
            Contribution("A", 50),
            Contribution("B", 100),
            Contribution("C", 100),
            Contribution("D", 70, folded=True),
        ]
    )
    assert breakdown.pots == (Pot(200, ("A", "B", "C")), Pot(120, ("B", "C")))


def test_all_in_wins_at_most_his_own_stake_from_each__POT_1() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    award = award_pots(breakdown, [["B"], ["A"], ["C"]])
    assert award.amounts == {"A": 30, "B": 15, "C": 0}


def test_uncalled_bet_returned_and_not_a_pot__POT_1() -> None:
    # B raises to 300, A (100) folds, C is all-in for 50: 200 of B's raise is never matched.
    breakdown = build_pots(
        [Contribution("A", 100, folded=True), Contribution("B", 300), Contribution("C", 50)]
    )
    assert breakdown.pots == (Pot(150, ("B", "C")), Pot(100, ("B",)))
    assert breakdown.returned == {"B": 200}
    award = award_pots(breakdown, [["C"], ["B"]], rake=0)
    assert award.amounts == {"A": 0, "B": 300, "C": 150}


def test_everyone_folds_to_the_bettor__POT_1() -> None:
    breakdown = build_pots(
        [Contribution("SB", 1, folded=True), Contribution("BB", 2, folded=True), Contribution("UTG", 6)]
    )
    assert breakdown.pots == (Pot(5, ("UTG",)),)
    assert breakdown.returned == {"UTG": 4}


def test_killed_hand_gets_back_what_no_live_player_matched__POT_1() -> None:
    # A bet 100, B called all-in for 50, then A's hand was killed (FLR-4): B wins 100, A gets
    # back the 50 that B could never have won from him.
    breakdown = build_pots([Contribution("A", 100, folded=True), Contribution("B", 50)])
    assert breakdown.pots == (Pot(100, ("B",)),)
    assert award_pots(breakdown, [["B"]]).amounts == {"A": 50, "B": 100}


def test_duplicate_player_refused__POT_1() -> None:
    with pytest.raises(PokerError):
        build_pots([Contribution("A", 5), Contribution("A", 5)])


def test_equal_hands_split_the_pot__POT_2() -> None:
    breakdown = build_pots([Contribution("A", 50), Contribution("B", 50)])
    assert award_pots(breakdown, [["A", "B"]]).amounts == {"A": 50, "B": 50}


def test_odd_chip_to_first_left_of_button__POT_2() -> None:
    # Seat order starts left of the button: C is first of the tied players left of it.
    breakdown = build_pots([Contribution("C", 35), Contribution("A", 35), Contribution("B", 35)])
    award = award_pots(breakdown, [["A", "C"], ["B"]])
    assert award.amounts == {"C": 53, "A": 52, "B": 0}


def test_odd_chip_is_the_smallest_chip_not_a_cent__POT_2() -> None:
    # 10.50 EUR split two ways with 0.50 chips: 5.50 and 5.00, not 5.25 each.
    assert split_amount(1050, ["X", "Y"], chip=50) == {"X": 550, "Y": 500}
    # Three ways, 2 odd chips: the first two tied players left of the button get one each.
    assert split_amount(1100, ["X", "Y", "Z"], chip=50) == {"X": 400, "Y": 350, "Z": 350}


def test_rake_comes_off_the_main_pot_first__RAK_1() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    # B wins the main pot (15) less the rake of 3; A wins the side pot (30) untouched.
    award = award_pots(breakdown, [["B"], ["A"], ["C"]], rake=3)
    assert award.amounts == {"A": 30, "B": 12, "C": 0}
    assert award.rake == 3


def test_rake_larger_than_main_pot_spills_into_side_pot__RAK_1() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    award = award_pots(breakdown, [["B"], ["A"], ["C"]], rake=20)
    assert award.amounts == {"A": 25, "B": 0, "C": 0}


def test_rake_above_pot_refused__RAK_1() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 20)])
    with pytest.raises(PokerError):
        award_pots(breakdown, [["A"]], rake=41)


def test_side_pot_with_its_own_winner__POT_1() -> None:
    breakdown = build_pots(
        [
            Contribution("A", 50),
            Contribution("B", 100),
            Contribution("C", 100),
            Contribution("D", 0, folded=True),
        ]
    )
    award = award_pots(breakdown, [["A"], ["C"], ["B"]])
    assert award.amounts == {"A": 150, "B": 0, "C": 100, "D": 0}
    assert award.pot_winners == (("A",), ("C",))


def test_last_aggressor_shows_first__POT_3() -> None:
    assert showdown_order(["A", "B", "C", "D"], last_aggressor="C") == ["C", "D", "A", "B"]


def test_checked_around_first_left_of_button_shows_first__POT_3() -> None:
    assert showdown_order(["A", "B", "C"], last_aggressor=None) == ["A", "B", "C"]


def test_unknown_aggressor_refused__POT_3() -> None:
    with pytest.raises(PokerError):
        showdown_order(["A", "B"], last_aggressor="Z")


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[Contribution], list[list[str]], int]:
    count = draw(st.integers(2, 9))
    players = [f"P{i}" for i in range(count)]
    contributions = [
        Contribution(p, draw(st.integers(0, 5_000)), folded=draw(st.booleans())) for p in players
    ]
    if all(c.folded for c in contributions):
        contributions[0] = Contribution(players[0], contributions[0].amount, folded=False)
    live = [c.player for c in contributions if not c.folded]
    order = draw(st.permutations(live))
    # Random showdown ranking: consecutive players may tie.
    ranking: list[list[str]] = []
    for player in order:
        if ranking and draw(st.booleans()):
            ranking[-1].append(player)
        else:
            ranking.append([player])
    rake_share = draw(st.integers(0, 100))
    return contributions, ranking, rake_share


@settings(max_examples=300)
@given(hands(), st.sampled_from([1, 5, 50]))
def test_pots_sum_to_what_was_bet_minus_rake__POT_1(
    hand: tuple[list[Contribution], list[list[str]], int], chip: int
) -> None:
    contributions, ranking, rake_share = hand
    breakdown = build_pots(contributions)
    bet = sum(c.amount for c in contributions)
    assert breakdown.total + breakdown.returned_total == bet
    rake = breakdown.total * rake_share // 100
    award = award_pots(breakdown, ranking, rake=rake, chip=chip)
    assert sum(award.amounts.values()) + award.rake == bet
    assert all(amount >= 0 for amount in award.amounts.values())
    for c in contributions:
        if c.folded:  # a folded hand wins nothing; it only gets back chips no one matched
            assert award.amounts[c.player] == breakdown.returned.get(c.player, 0)


@settings(max_examples=300)
@given(hands())
def test_no_player_wins_more_from_an_opponent_than_he_put_in__POT_1(
    hand: tuple[list[Contribution], list[list[str]], int],
) -> None:
    contributions, ranking, _ = hand
    award = award_pots(build_pots(contributions), ranking)
    for c in contributions:
        cap = sum(min(c.amount, other.amount) for other in contributions)
        # A winner's take is bounded by what each opponent could have matched of his own stake,
        # plus his uncalled excess, which comes back to him.
        excess = c.amount - max((o.amount for o in contributions if o is not c), default=0)
        assert award.amounts[c.player] <= cap + max(0, excess)


@settings(max_examples=200)
@given(st.integers(0, 100_000), st.integers(1, 9), st.sampled_from([1, 5, 50, 100]))
def test_split_sums_and_differs_by_at_most_one_chip__POT_2(amount: int, n: int, chip: int) -> None:
    winners = [f"W{i}" for i in range(n)]
    shares = split_amount(amount, winners, chip=chip)
    assert sum(shares.values()) == amount
    values = [shares[w] for w in winners]
    assert values == sorted(values, reverse=True)  # extra chips go to the first left of button
    assert values[0] - values[-1] <= chip + amount % chip
