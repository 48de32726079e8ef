"""Side pots, dead money, splits, odd chips, rake per pot and showdown order (POT-1..POT-4, RAK-1, RAK-6)."""

from __future__ import annotations

from dataclasses import replace

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
from poker.rake import fee_split, rake_for_pot


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


def test_rake_is_charged_to_the_pots_in_proportion__RAK_6() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    # Pots 15 and 30, rake 3: 1 from the main pot, 2 from the side pot. B (all-in for 5) wins
    # the main pot and pays only its share; A wins the side pot less its share.
    award = award_pots(breakdown, [["B"], ["A"], ["C"]], rake=3)
    assert award.amounts == {"A": 28, "B": 14, "C": 0}
    assert (award.rake, award.pot_fees) == (3, (1, 2))


def test_rounding_remainder_is_charged_to_the_largest_pot__RAK_6() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    # Rake 20 on pots 15 and 30: 6.67 -> 6 and 13.33 -> 13; the 1 left goes to the side pot.
    award = award_pots(breakdown, [["B"], ["A"], ["C"]], rake=20)
    assert award.pot_fees == (6, 14)
    assert award.amounts == {"A": 16, "B": 9, "C": 0}


def test_fees_per_pot_given_by_the_caller__RAK_6() -> None:
    breakdown = build_pots([Contribution("A", 20), Contribution("B", 5), Contribution("C", 20)])
    award = award_pots(breakdown, [["B"], ["A"], ["C"]], pot_fees=[2, 3])
    assert (award.amounts, award.rake) == ({"A": 27, "B": 13, "C": 0}, 5)
    with pytest.raises(PokerError):
        award_pots(breakdown, [["B"], ["A"]], pot_fees=[16, 0])  # more than the main pot
    with pytest.raises(PokerError):
        award_pots(breakdown, [["B"], ["A"]], pot_fees=[1])  # one per pot
    with pytest.raises(PokerError):
        award_pots(breakdown, [["B"], ["A"]], rake=3, pot_fees=[1, 2])


def test_dead_blind_joins_the_main_pot__POT_4() -> None:
    # A comes back after missing his blinds (CSH-6): a dead small blind of 1 and a live big
    # blind of 2. B raises to 10, C calls, A folds. A's 3 are in the pot, B and C contest it.
    breakdown = build_pots(
        [Contribution("A", 2, folded=True, dead=1), Contribution("B", 10), Contribution("C", 10)]
    )
    assert breakdown.pots == (Pot(23, ("B", "C")),)
    assert (breakdown.returned, breakdown.dead) == ({}, 1)


def test_dead_blind_does_not_count_toward_matching_a_raise__POT_4() -> None:
    # A posts dead 1 + live 2, B raises to 6, A folds: only A's live 2 matched B, so 4 of B's
    # raise are uncalled and go back to him (not 3, as if the dead chip had called).
    breakdown = build_pots([Contribution("A", 2, folded=True, dead=1), Contribution("B", 6)])
    assert breakdown.pots == (Pot(5, ("B",)),)
    assert breakdown.returned == {"B": 4}
    assert award_pots(breakdown, [["B"]]).amounts == {"A": 0, "B": 9}


def test_all_in_with_a_dead_blind_wins_only_his_live_money_from_each__POT_4() -> None:
    # A posts dead 1 + live 2 and goes all-in for 30 live (31 put in); B and C put in 100 each.
    # A can win 30 from each opponent plus the dead chip: main 91, side 140.
    breakdown = build_pots([Contribution("A", 30, dead=1), Contribution("B", 100), Contribution("C", 100)])
    assert breakdown.pots == (Pot(91, ("A", "B", "C")), Pot(140, ("B", "C")))
    award = award_pots(breakdown, [["A"], ["B"], ["C"]])
    assert award.amounts == {"A": 91, "B": 140, "C": 0}


def test_dead_money_alone_forms_the_main_pot__POT_4() -> None:
    # Nobody bet live money (a walk after a dead blind): the dead chip still goes to the pot.
    breakdown = build_pots([Contribution("A", 0, folded=True, dead=1), Contribution("B", 0)])
    assert breakdown.pots == (Pot(1, ("B",)),)
    with pytest.raises(PokerError):
        build_pots([Contribution("A", 5, dead=-1), Contribution("B", 5)])


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
def hands(draw: st.DrawFn, *, dead: bool = False) -> tuple[list[Contribution], list[list[str]], int]:
    count = draw(st.integers(2, 9))
    players = [f"P{i}" for i in range(count)]
    contributions = [
        Contribution(
            p,
            draw(st.integers(0, 5_000)),
            folded=draw(st.booleans()),
            dead=draw(st.sampled_from([0, 0, 1, 50])) if dead else 0,
        )
        for p in players
    ]
    if all(c.folded for c in contributions):
        contributions[0] = replace(contributions[0], folded=False)
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
@given(hands(dead=True), st.sampled_from([1, 5, 50]))
def test_pots_sum_to_what_was_bet_minus_rake__POT_1_POT_4(
    hand: tuple[list[Contribution], list[list[str]], int], chip: int
) -> None:
    contributions, ranking, rake_share = hand
    breakdown = build_pots(contributions)
    bet = sum(c.amount + c.dead for c in contributions)
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


@settings(max_examples=300)
@given(hands(dead=True))
def test_dead_money_joins_the_main_pot_and_changes_nothing_else__POT_4(
    hand: tuple[list[Contribution], list[list[str]], int],
) -> None:
    contributions, _ranking, _rake = hand
    with_dead = build_pots(contributions)
    live_only = build_pots([replace(c, dead=0) for c in contributions])
    dead = sum(c.dead for c in contributions)
    assert with_dead.dead == dead
    assert with_dead.returned == live_only.returned  # dead chips are never returned
    assert with_dead.total + with_dead.returned_total == sum(c.amount + c.dead for c in contributions)
    if live_only.pots:
        assert with_dead.pots[0].amount == live_only.pots[0].amount + dead
        assert with_dead.pots[0].eligible == live_only.pots[0].eligible
        assert with_dead.pots[1:] == live_only.pots[1:]
    else:
        assert [pot.amount for pot in with_dead.pots] == ([dead] if dead else [])


@st.composite
def short_all_in_hands(draw: st.DrawFn) -> list[Contribution]:
    """P0 is all-in for less than every other live player, who all put in more."""
    short = draw(st.integers(1, 2_000))
    others = [
        Contribution(f"P{i}", draw(st.integers(short + 1, 20_000)), folded=draw(st.booleans()))
        for i in range(1, draw(st.integers(2, 8)))
    ]
    others[0] = replace(others[0], folded=False)
    return [Contribution("P0", short, dead=draw(st.sampled_from([0, 50]))), *others]


@settings(max_examples=300)
@given(short_all_in_hands(), st.sampled_from([1, 5, 50]), st.integers(0, 500), st.integers(0, 100))
def test_short_all_in_pays_no_rake_on_side_pots__RAK_6(
    contributions: list[Contribution], chip: int, cap: int, drop: int
) -> None:
    breakdown = build_pots(contributions)
    amounts = [pot.amount for pot in breakdown.pots]
    assert breakdown.pots[0].eligible[0] == "P0"
    assert all("P0" not in pot.eligible for pot in breakdown.pots[1:])
    rake = rake_for_pot(
        pot_cents=breakdown.total,
        rate_bp=500,
        cap_cents=cap,
        rounding_cents=chip,
        saw_flop=True,
        voided=False,
    )
    drop = min(drop, breakdown.total - rake)
    rake_shares, drop_shares = fee_split(amounts, rake_cents=rake, drop_cents=drop, chip_cents=chip)
    fees = [r + d for r, d in zip(rake_shares, drop_shares, strict=True)]
    ranking = [["P0"], *[[c.player] for c in contributions[1:] if not c.folded]]
    award = award_pots(breakdown, ranking, pot_fees=fees)
    # P0 wins the main pot and pays its share only, whatever the side pots hold.
    assert award.amounts["P0"] == amounts[0] - fees[0]
    assert sum(award.amounts.values()) + award.rake == sum(c.amount + c.dead for c in contributions)
