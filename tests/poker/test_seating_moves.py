"""Fewest moves (TRN-9): balancing and breaking move no more players than the sizes demand, and
a move the floor has not confirmed yet is called off, not made twice, when its table breaks."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from poker.seating import (
    Layout,
    Move,
    apply_moves,
    balance_tables,
    break_tables,
    net_moves,
    next_tables_to_break,
)
from tests.poker.test_seating import layouts, sizes


def fewest_to_balance(counts: list[int]) -> int:
    """The fewest players that must move so no table has more than one player more than another:
    with N players at T tables the fullest N mod T tables keep one more than N // T."""
    if not counts:
        return 0
    share, extra = divmod(sum(counts), len(counts))
    targets = [share + 1] * extra + [share] * (len(counts) - extra)
    return sum(
        max(0, count - target) for count, target in zip(sorted(counts, reverse=True), targets, strict=True)
    )


def test_fewest_to_balance_counts_by_hand__TRN_9() -> None:
    assert fewest_to_balance([9, 1]) == 4  # 9/1 -> 5/5
    assert fewest_to_balance([9, 5, 8]) == 2  # 22 over 3: 8/7/7
    assert fewest_to_balance([6, 5, 5]) == 0


@settings(max_examples=300)
@given(layouts())
def test_balancing_moves_the_fewest_players__TRN_9(case: tuple[Layout, int, dict[int, int]]) -> None:
    layout, seats_per_table, buttons = case
    moves = balance_tables(layout, seats_per_table=seats_per_table, buttons=buttons)
    assert len(moves) == fewest_to_balance(sizes(layout))


@settings(max_examples=300)
@given(layouts(), st.integers(0, 2**32), st.data())
def test_breaking_moves_the_fewest_players__TRN_9(
    case: tuple[Layout, int, dict[int, int]], seed: int, data: st.DataObject
) -> None:
    layout, seats_per_table, buttons = case
    order = data.draw(st.permutations(sorted(layout)))
    breaking = next_tables_to_break(layout, seats_per_table=seats_per_table, break_order=order)
    moves = break_tables(
        layout, breaking=breaking, seats_per_table=seats_per_table, rng=random.Random(seed), buttons=buttons
    )
    leaving = sum(len(layout[t]) for t in breaking)
    staying = sorted((len(seats) for t, seats in layout.items() if t not in breaking), reverse=True)
    # Everyone at a breaking table moves once; beyond them only the players over their share at
    # the tables that stay (the fullest N mod T of them keep one more), into the open seats.
    over = 0
    if staying:
        share, extra = divmod(sum(staying) + leaving, len(staying))
        targets = [share + 1] * extra + [share] * (len(staying) - extra)
        over = sum(max(0, count - target) for count, target in zip(staying, targets, strict=True))
    assert len(moves) == leaving + over
    assert len(net_moves(moves)) == len({m.player_id for m in moves})


def test_unconfirmed_moves_are_called_off_when_their_table_breaks__TRN_9() -> None:
    # Table 1 (9 seats) was full; a late entry opened table 2 and players 3, 4, 5 and 9 moved
    # there on slips not confirmed yet; then player 7 busted at table 1. Table 2 breaks first.
    layout = {
        1: {1: 7, 2: 2, 3: 8, 8: 6, 9: 1},
        2: {1: 3, 3: 10, 7: 9, 8: 5, 9: 4},
    }
    del layout[1][1]  # player 7 is out
    origins = {3: (1, 4), 4: (1, 5), 5: (1, 6), 9: (1, 7)}
    moves = break_tables(layout, breaking=[2], seats_per_table=9, rng=random.Random(1), origins=origins)
    after = apply_moves(layout, moves)
    assert after[2] == {}
    assert after[1] == {1: 10, 2: 2, 3: 8, 4: 3, 5: 4, 6: 5, 7: 9, 8: 6, 9: 1}
    # Only the late entry who sat at table 2 moves; the four slips are called off.
    assert net_moves(moves, origins) == [Move(10, 2, 3, 1, 1)]


def test_net_moves_give_one_slip_per_player_from_where_they_sit__TRN_9() -> None:
    moves = [Move("a", 1, 1, 2, 2), Move("b", 1, 3, 2, 4), Move("a", 2, 2, 3, 5), Move("c", 2, 6, 3, 1)]
    # "c" was on a slip from table 1 seat 2 not yet carried out.
    assert net_moves(moves, {"c": (1, 2)}) == [
        Move("a", 1, 1, 3, 5),
        Move("b", 1, 3, 2, 4),
        Move("c", 1, 2, 3, 1),
    ]
    # Back where the player sits: no slip at all.
    assert net_moves([Move("a", 2, 2, 1, 1)], {"a": (1, 1)}) == []


@st.composite
def breaks_with_unconfirmed_moves(draw: st.DrawFn):
    layout, seats_per_table, buttons = draw(layouts())
    order = draw(st.permutations(sorted(layout)))
    breaking = next_tables_to_break(layout, seats_per_table=seats_per_table, break_order=order)
    # Some players at the breaking tables came there on slips not yet carried out: they still sit
    # in a seat left empty at a table that stays (or, to be ignored, anywhere else).
    empty = [
        (table, seat)
        for table in sorted(layout)
        if table not in breaking
        for seat in range(1, seats_per_table + 1)
        if seat not in layout[table]
    ]
    origins: dict[int, tuple[int, int]] = {}
    for table in breaking:
        for player in layout[table].values():
            if empty and draw(st.booleans()):
                origins[player] = empty.pop(draw(st.integers(0, len(empty) - 1)))
            elif draw(st.integers(0, 9)) == 0:
                origins[player] = (
                    draw(st.sampled_from(sorted(layout))),
                    draw(st.integers(1, seats_per_table)),
                )
    return layout, seats_per_table, buttons, breaking, origins


@settings(max_examples=300)
@given(breaks_with_unconfirmed_moves(), st.integers(0, 2**32))
def test_unconfirmed_moves_never_add_a_move__TRN_9(case, seed: int) -> None:
    layout, seats_per_table, buttons, breaking, origins = case
    plain = break_tables(
        layout, breaking=breaking, seats_per_table=seats_per_table, rng=random.Random(seed), buttons=buttons
    )
    moves = break_tables(
        layout,
        breaking=breaking,
        seats_per_table=seats_per_table,
        rng=random.Random(seed),
        buttons=buttons,
        origins=origins,
    )
    after = apply_moves(layout, moves)  # raises if a seat were used twice
    remaining = {t: seats for t, seats in after.items() if t not in breaking}
    assert all(after[t] == {} for t in breaking)
    assert sorted(p for seats in remaining.values() for p in seats.values()) == sorted(
        p for seats in layout.values() for p in seats.values()
    )
    if remaining:
        assert max(sizes(remaining)) - min(sizes(remaining)) <= 1
    assert not {m.to_table for m in moves} & set(breaking)
    # Going back costs no balancing move that drawing would not have cost.
    assert len(moves) <= len(plain)
    back = {m.player_id for m in moves if origins.get(m.player_id) == (m.to_table, m.to_seat)}
    slips = net_moves(moves, origins)
    assert max(Counter(m.player_id for m in slips).values(), default=0) <= 1
    # A player sent back to the seat they never left has no slip, unless balancing moved them on.
    moved_on = {m.player_id for m in moves if origins.get(m.player_id) != (m.to_table, m.to_seat)}
    assert {m.player_id for m in slips} & back <= moved_on
    assert len(slips) <= len(moves) - len(back - moved_on)
