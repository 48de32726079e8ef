"""Colour-ups and the TDA chip race (CHP-1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.colour_up import (
    ColourUp,
    RaceError,
    RaceSeat,
    colour_ups,
    race_check,
    races_for,
    smallest_needed,
    table_colour_up,
)
from poker.common import PokerError

CHIPS = (25, 100, 500, 1000, 5000, 25000)
BREAK = None
# The turbo preset's levels (small blind, big blind, ante) and breaks.
TURBO = [
    (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 200), (150, 300, 300), (200, 400, 400),
    BREAK,
    (300, 600, 600), (400, 800, 800), (500, 1000, 1000), (600, 1200, 1200), (800, 1600, 1600),
    (1000, 2000, 2000),
    BREAK,
    (1500, 3000, 3000), (2000, 4000, 4000), (3000, 6000, 6000), (4000, 8000, 8000), (5000, 10000, 10000),
    (6000, 12000, 12000),
    BREAK,
    (8000, 16000, 16000), (10000, 20000, 20000), (15000, 30000, 30000), (20000, 40000, 40000),
]  # fmt: skip


def test_smallest_needed_is_the_largest_chip_dividing_every_amount__CHP_1() -> None:
    assert smallest_needed([300, 600, 600], CHIPS) == 100
    assert smallest_needed([150, 300], CHIPS) == 25
    assert smallest_needed([1500, 3000], CHIPS) == 500
    assert smallest_needed([10, 20], CHIPS) == 25  # nothing divides: the smallest chip stays


def test_turbo_colours_up_at_the_level_after_each_break__CHP_1() -> None:
    ups = colour_ups(TURBO, CHIPS)
    # Level 7 (position 7) is the first after the first break: the 25s leave; then the 100s at
    # position 14, the 500s at 21; the 1000s stop being needed at 10,000/20,000 (position 22)
    # with no break to come, so they leave there.
    assert ups == [
        ColourUp(position=7, leaving=(25,), chip_up=100),
        ColourUp(position=14, leaving=(100,), chip_up=500),
        ColourUp(position=21, leaving=(500,), chip_up=1000),
        ColourUp(position=22, leaving=(1000,), chip_up=5000),
    ]


def test_two_chips_leaving_at_one_break_go_together__CHP_1() -> None:
    levels = [(25, 50, 0), BREAK, (1000, 2000, 0)]
    assert colour_ups(levels, CHIPS) == [ColourUp(position=2, leaving=(25, 100, 500), chip_up=1000)]


def test_races_round_half_up__CHP_1() -> None:
    assert races_for(0, 100) == 0
    assert races_for(25, 100) == 0
    assert races_for(50, 100) == 1
    assert races_for(175, 100) == 2
    assert races_for(225, 100) == 2


def test_table_race_by_the_cards_and_the_suits__CHP_1() -> None:
    seats = [
        RaceSeat(1, {25: 7}, card="Kd"),  # 175: one chip of 100 exchanged, 75 odd
        RaceSeat(2, {25: 2}, card="Ah"),  # 50 odd
        RaceSeat(3, {25: 4}),  # 100: exchanged, nothing odd, no card needed
        RaceSeat(4, {25: 1}, card="As"),  # 25 odd, ace of spades beats ace of hearts
        RaceSeat(5, {25: 0}),
    ]
    result = table_colour_up(seats, 100)
    assert result.odd_total == 150
    assert result.raced == 2  # 150 is one and a half chips: rounds up
    assert result.winners == {4, 2}
    assert result.saved == frozenset()
    assert [(s.seat, s.exchanged, s.odd_value, s.cards, s.chips_up) for s in result.seats] == [
        (1, 1, 75, 3, 1),
        (2, 0, 50, 2, 1),
        (3, 1, 0, 0, 1),
        (4, 0, 25, 1, 1),
        (5, 0, 0, 0, 0),
    ]
    assert result.chips_back == 350
    assert result.chips_to_bring == 4
    race_check(result, {2, 4})


def test_player_with_only_odd_chips_is_never_raced_out__CHP_1() -> None:
    seats = [
        RaceSeat(1, {25: 1}, card="2c", other_chips=False),  # loses, but keeps one chip of 100
        RaceSeat(2, {25: 1}, card="Ks"),
    ]
    result = table_colour_up(seats, 100)
    assert result.raced == 1  # 50 of 100
    assert result.winners == {2}
    assert result.saved == {1}
    assert result.chips_to_bring == 2
    with pytest.raises(RaceError) as refused:
        race_check(result, {2})
    assert (refused.value.code, refused.value.rule, refused.value.seat) == ("raced_out", "CHP-1", 1)
    race_check(result, {1, 2})


def test_race_not_matching_the_cards_is_refused__CHP_1() -> None:
    result = table_colour_up([RaceSeat(1, {25: 1}, card="2c"), RaceSeat(2, {25: 1}, card="Ks")], 100)
    with pytest.raises(RaceError) as refused:
        race_check(result, {1})
    assert (refused.value.code, refused.value.seat) == ("race_mismatch", 1)


def test_bad_race_input_refused__CHP_1() -> None:
    with pytest.raises(PokerError, match="card"):
        table_colour_up([RaceSeat(1, {25: 1})], 100)
    with pytest.raises(PokerError) as negative:
        table_colour_up([RaceSeat(1, {25: -1}, card="As")], 100)
    assert negative.value.code == "negative_chips"
    with pytest.raises(PokerError) as nothing:
        table_colour_up([RaceSeat(1, {25: 0}, other_chips=False)], 100)
    assert nothing.value.code == "no_chips"
    with pytest.raises(PokerError) as twice:
        table_colour_up([RaceSeat(1, {25: 1}, card="As"), RaceSeat(2, {25: 1}, card="As")], 100)
    assert twice.value.code == "duplicate_card"


DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]


@st.composite
def tables(draw):
    chip_up = draw(st.sampled_from([100, 500, 1000]))
    leaving = [chip for chip in (25, 100, 500) if chip < chip_up]
    size = draw(st.integers(1, 10))
    cards = draw(st.permutations(DECK))
    seats = []
    for number in range(1, size + 1):
        counts = {chip: draw(st.integers(0, 12)) for chip in leaving}
        other = draw(st.booleans()) or not any(counts.values())
        seats.append(RaceSeat(number, counts, other_chips=other, card=cards[number]))
    return seats, chip_up


@settings(deadline=None)  # a shuffled deck per example: slow on a busy machine, not wrong
@given(tables())
def test_race_keeps_the_value_but_the_rounding_and_nobody_is_raced_out__CHP_1(table) -> None:
    seats, chip_up = table
    result = table_colour_up(seats, chip_up)
    before = sum(seat.leaving_value for seat in result.seats)
    after = sum(seat.chips_up for seat in result.seats) * chip_up
    saved = len(result.saved)
    # Value moves only by the race's rounding (at most half a chip) and the chips given to
    # players who would have been raced out.
    assert after - saved * chip_up - before == result.raced * chip_up - result.odd_total
    assert abs(result.raced * chip_up - result.odd_total) * 2 <= chip_up
    for seat, row in zip(seats, result.seats, strict=True):
        assert seat.other_chips or row.chips_up > 0  # nobody raced out
        assert int(row.won) + int(row.saved) <= 1  # one chip at most from the race
        assert row.won <= (row.odd_value > 0)
    assert len(result.winners) == result.raced
    race_check(result, result.winners | result.saved)


@given(
    st.lists(
        st.tuples(st.sampled_from([25, 50, 75, 100, 150, 200, 300, 500, 1000]), st.booleans()), min_size=1
    )
)
def test_colour_ups_only_remove_chips_no_later_level_needs__CHP_1(rows) -> None:
    levels = [BREAK if is_break else (amount, amount * 2, 0) for amount, is_break in rows]
    ups = colour_ups(levels, CHIPS)
    positions = [up.position for up in ups]
    assert positions == sorted(set(positions))
    for up in ups:
        for level in levels[up.position :]:
            if level is not None:
                assert all(amount % up.chip_up == 0 for amount in level if amount)
