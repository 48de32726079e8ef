"""LOY-2's pure rules: the both-hole-cards rule, ranking against the period's best, the prize
split with odd cents, and the periods of an evening across midnight."""

from datetime import date, datetime, time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker.hands import HandCategory
from poker.highhand import (
    HighHandError,
    HighHandRules,
    PeriodWindow,
    claim_cards,
    high_hand_value,
    prize_split,
    rank_against_best,
)

BOARD = "Qs Jc Th 2d 3c"


def test_typed_cards_are_read_in_any_case_and_10_is_a_ten__LOY_2():
    assert claim_cards("ah KD", "qs jc 10h 2d 3C") == (("Ah", "Kd"), ("Qs", "Jc", "Th", "2d", "3c"))


def test_a_straight_using_both_hole_cards_qualifies__LOY_2():
    value = high_hand_value("Ah Kd", BOARD)
    assert (value.category, value.label, sorted(value.cards)) == (
        HandCategory.STRAIGHT,
        "Straight",
        sorted(["Ah", "Kd", "Qs", "Jc", "Th"]),
    )


def test_one_hole_card_playing_is_refused_when_both_must_play__LOY_2():
    # Board quads of queens: the ace kicker plays, the 2 does not.
    with pytest.raises(HighHandError) as error:
        high_hand_value("Ah 4s", "Qs Qh Qd Qc 9s")
    assert (error.value.code, error.value.rule) == ("hole_cards_do_not_play", "LOY-2")


def test_one_hole_card_playing_is_accepted_when_the_promotion_allows_it__LOY_2():
    value = high_hand_value("Ah 4s", "Qs Qh Qd Qc 9s", HighHandRules(both_hole_cards=False))
    assert value.category == HandCategory.FOUR_OF_A_KIND


def test_a_pocket_pair_making_a_full_house_plays_both_cards__LOY_2():
    value = high_hand_value("9h 9d", "9s Qc Qd 2h 5c")
    assert value.label == "Full house"


def test_a_hand_below_the_minimum_is_refused__LOY_2():
    with pytest.raises(HighHandError) as error:
        high_hand_value("Ah Kd", BOARD, HighHandRules(min_category=HandCategory.FULL_HOUSE))
    assert error.value.code == "below_minimum_hand"


@pytest.mark.parametrize(
    ("hole", "board", "code"),
    [
        ("Ah Ah", BOARD, "duplicate_card"),
        ("Ah Qs", BOARD, "duplicate_card"),
        ("Ah Kx", BOARD, "bad_card"),
        ("Ah", BOARD, "bad_card_count"),
        ("Ah Kd", "Qs Jc Th 2d", "bad_card_count"),
    ],
)
def test_bad_cards_are_refused_naming_the_rule__LOY_2(hole, board, code):
    with pytest.raises(HighHandError) as error:
        high_hand_value(hole, board)
    assert (error.value.code, error.value.rule) == (code, "LOY-2")


def test_ranking_against_the_period_best__LOY_2():
    straight = high_hand_value("Ah Kd", BOARD)
    same_straight = high_hand_value("As Kc", BOARD)
    full_house = high_hand_value("Qh Qd", "Qs Jc Jh 2d 3c")
    assert rank_against_best(straight, None) == "new_best"
    assert rank_against_best(full_house, straight) == "new_best"
    assert rank_against_best(same_straight, straight) == "tie"
    assert rank_against_best(straight, full_house) == "beaten"


def test_prize_split_gives_odd_cents_to_the_earliest_claims__LOY_2():
    shares = prize_split(10_001, ["first", "second", "third"])
    assert shares == {"first": 3_334, "second": 3_334, "third": 3_333}
    assert prize_split(20_000, [7]) == {7: 20_000}


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=1, max_value=9))
def test_prize_split_never_loses_a_cent__LOY_2(prize, count):
    shares = prize_split(prize, list(range(count)))
    assert sum(shares.values()) == prize
    assert max(shares.values()) - min(shares.values()) <= 1


def test_periods_run_across_midnight_and_the_last_one_is_cut_at_the_end__LOY_2():
    window = PeriodWindow(start=time(20, 0), end=time(2, 0), minutes=90)
    assert window.periods(date(2026, 11, 10)) == [
        (datetime(2026, 11, 10, 20, 0), datetime(2026, 11, 10, 21, 30)),
        (datetime(2026, 11, 10, 21, 30), datetime(2026, 11, 10, 23, 0)),
        (datetime(2026, 11, 10, 23, 0), datetime(2026, 11, 11, 0, 30)),
        (datetime(2026, 11, 11, 0, 30), datetime(2026, 11, 11, 2, 0)),
    ]
    assert window.period_at(datetime(2026, 11, 11, 1, 15)) == (
        datetime(2026, 11, 11, 0, 30),
        datetime(2026, 11, 11, 2, 0),
    )
    assert window.period_at(datetime(2026, 11, 11, 2, 0)) is None
    assert window.period_at(datetime(2026, 11, 11, 19, 59)) is None
