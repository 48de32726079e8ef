"""Seat draw, balancing, breaking tables and move slips (TRN-9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.common import PokerError
from poker.seating import (
    Layout,
    Move,
    apply_moves,
    balance_tables,
    break_table,
    break_tables,
    draw_seats,
    final_table_draw,
    next_big_blind_seat,
    next_tables_to_break,
    seat_closest_to_big_blind,
    table_break_order,
    tables_to_break,
)


def sizes(layout: Layout) -> list[int]:
    return [len(seats) for seats in layout.values()]


def players(layout: Layout) -> list[object]:
    return sorted(p for seats in layout.values() for p in seats.values())


def test_move_slip_text__TRN_9() -> None:
    assert str(Move(42, 7, 3, 2, 9)) == "Table 7 seat 3 -> Table 2 seat 9"


def test_draw_spreads_players_evenly__TRN_9() -> None:
    layout = draw_seats(list(range(3_000)), seats_per_table=9, rng=random.Random(7))
    assert len(layout) == 334
    assert max(sizes(layout)) - min(sizes(layout)) <= 1
    assert players(layout) == list(range(3_000))
    assert balance_tables(layout, seats_per_table=9) == []


def test_draw_is_random_but_replayable_from_seed__TRN_9() -> None:
    ids = [f"p{i}" for i in range(20)]
    first = draw_seats(ids, seats_per_table=10, rng=random.Random(1), tables=[4, 5])
    again = draw_seats(ids, seats_per_table=10, rng=random.Random(1), tables=[4, 5])
    other = draw_seats(ids, seats_per_table=10, rng=random.Random(2), tables=[4, 5])
    assert first == again
    assert first != other
    assert sorted(first) == [4, 5]


def test_draw_refuses_more_players_than_seats__TRN_9() -> None:
    with pytest.raises(PokerError):
        draw_seats(list(range(19)), seats_per_table=9, rng=random.Random(0), tables=2)


def test_next_big_blind_seat__TRN_9() -> None:
    # Button in 1: next hand the button goes to 2, small blind 3, big blind 4.
    assert next_big_blind_seat(range(1, 10), button=1, seats_per_table=9) == 4
    # Empty seats are skipped and the count wraps past the last seat.
    assert next_big_blind_seat([2, 5, 8, 9], button=8, seats_per_table=9) == 5
    # Heads-up the button posts the small blind, so the big blind is the other player.
    assert next_big_blind_seat([3, 7], button=3, seats_per_table=9) == 3


def test_balancing_moves_next_big_blind_into_big_blind_seat__TRN_9() -> None:
    full = {seat: f"a{seat}" for seat in range(1, 10)}
    short = {seat: f"b{seat}" for seat in (1, 2, 3, 5, 6, 7, 9)}
    # Table 2, button in 5: next hand button 6, small blind 7, and empty seat 8 is the big blind.
    moves = balance_tables({1: full, 2: short}, seats_per_table=9, buttons={1: 1, 2: 5})
    assert moves == [Move("a4", 1, 4, 2, 8)]
    assert str(moves[0]) == "Table 1 seat 4 -> Table 2 seat 8"


def test_newcomer_seat_is_the_one_nearest_the_big_blind__TRN_9() -> None:
    # Button in 5, open seats 4, 6 and 7. Seated in 6 or 7 he would take the button next hand
    # and wait a whole orbit for the big blind; seated in 4 he gets it once seats 1, 2 and 3 have
    # had it (the fourth hand), which is the soonest any open seat allows.
    seats = {1: "p", 2: "q", 3: "r", 5: "s", 8: "t", 9: "u"}
    assert seat_closest_to_big_blind(seats, button=5, seats_per_table=9) == 4


def test_unknown_button_defaults_to_seat_one__TRN_9() -> None:
    seats = {1: "w", 2: "x", 3: "y", 6: "z"}
    # Button 1: next hand button 2, SB 3, BB 6; seats 4 and 5 sit between SB and BB -> 5.
    assert seat_closest_to_big_blind(seats, button=1, seats_per_table=6) == 5
    moves = balance_tables({1: {1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f"}, 2: seats}, seats_per_table=6)
    assert moves == [Move("d", 1, 4, 2, 5)]


def test_balancing_from_fullest_to_shortest__TRN_9() -> None:
    layout = {
        1: {s: f"a{s}" for s in range(1, 10)},
        2: {s: f"b{s}" for s in range(1, 6)},
        3: {s: f"c{s}" for s in range(1, 9)},
    }
    moves = balance_tables(layout, seats_per_table=9)
    # 9/5/8 -> 8/6/8 -> (tie for fullest: lowest number) 7/7/8.
    assert [(m.from_table, m.to_table) for m in moves] == [(1, 2), (1, 2)]
    after = apply_moves(layout, moves)
    assert sizes(after) == [7, 7, 8]


def test_tables_to_break_when_rest_can_absorb__TRN_9() -> None:
    assert tables_to_break(player_count=17, table_count=3, seats_per_table=9) == 1
    assert tables_to_break(player_count=19, table_count=3, seats_per_table=9) == 0
    assert tables_to_break(player_count=9, table_count=3, seats_per_table=9) == 2


def test_tables_break_in_pre_drawn_order__TRN_9() -> None:
    order = table_break_order([1, 2, 3, 4, 5], random.Random(3))
    assert sorted(order) == [1, 2, 3, 4, 5]
    assert order == table_break_order([5, 4, 3, 2, 1], random.Random(3))
    layout = {n: {1: f"{n}a", 2: f"{n}b", 3: f"{n}c"} for n in (1, 2, 3, 4, 5)}
    # 15 players at 6-seat tables need 3 tables: the first two still in play in the order break.
    assert next_tables_to_break(layout, seats_per_table=6, break_order=order) == order[:2]


def test_break_table_draws_open_seats_keeping_balance__TRN_9() -> None:
    layout = {
        1: {s: f"a{s}" for s in (1, 2, 3, 4, 5, 6)},
        2: {s: f"b{s}" for s in (2, 3, 4, 5, 6, 8)},
        3: {s: f"c{s}" for s in (1, 4, 7, 9, 5)},
    }
    moves = break_table(layout, table=3, seats_per_table=9, rng=random.Random(5))
    assert {m.player_id for m in moves} == {f"c{s}" for s in (1, 4, 7, 9, 5)}
    assert all(m.from_table == 3 and m.to_table in (1, 2) for m in moves)
    after = apply_moves(layout, moves)
    assert after[3] == {}
    assert sorted([len(after[1]), len(after[2])]) == [8, 9]
    assert players(after) == players(layout)


def test_break_tables_in_one_pass_sends_no_one_to_a_breaking_table__TRN_9() -> None:
    # 4 tables of 6 seats with 3, 2, 4 and 4 players: 13 players need 3 tables, so 1 can break;
    # with 11 players (two more out) 2 tables break at once.
    layout = {
        1: {1: "a1", 2: "a2", 3: "a3"},
        2: {1: "b1", 4: "b4"},
        3: {1: "c1", 2: "c2", 3: "c3", 4: "c4"},
        4: {2: "d2", 3: "d3", 5: "d5", 6: "d6"},
    }
    order = [2, 1, 4, 3]
    assert next_tables_to_break(layout, seats_per_table=6, break_order=order) == [2]
    del layout[3][4], layout[4][6]
    breaking = next_tables_to_break(layout, seats_per_table=6, break_order=order)
    assert breaking == [2, 1]
    moves = break_tables(layout, breaking=breaking, seats_per_table=6, rng=random.Random(4))
    # Each of the five players of tables 1 and 2 moves once, straight to table 3 or 4.
    assert sorted(m.player_id for m in moves) == ["a1", "a2", "a3", "b1", "b4"]
    assert {m.to_table for m in moves} == {3, 4}
    after = apply_moves(layout, moves)
    assert (after[1], after[2], len(after[3]), len(after[4])) == ({}, {}, 6, 5)
    assert next_tables_to_break({3: after[3], 4: after[4]}, seats_per_table=6, break_order=order) == []


def test_break_tables_gives_break_tables_result_for_one_table__TRN_9() -> None:
    layout = {1: {1: "a", 2: "b", 3: "c"}, 2: {1: "d", 2: "e"}, 3: {4: "f", 5: "g", 6: "h"}}
    one = break_table(layout, table=2, seats_per_table=6, rng=random.Random(9), buttons={1: 3})
    assert one == break_tables(layout, breaking=[2], seats_per_table=6, rng=random.Random(9), buttons={1: 3})


def test_break_tables_refusals__TRN_9() -> None:
    layout = {1: {1: "a", 2: "b"}, 2: {1: "c", 2: "d"}, 3: {1: "e", 2: "f", 3: "g"}}
    for breaking in ([1, 1], [4], [1, 2]):
        with pytest.raises(PokerError) as raised:
            break_tables(layout, breaking=breaking, seats_per_table=3, rng=random.Random(0))
        assert raised.value.rule == "TRN-9"
    # Breaking nothing is balancing alone.
    assert break_tables(layout, breaking=[], seats_per_table=3, rng=random.Random(0)) == []


def test_break_table_refused_when_others_cannot_absorb__TRN_9() -> None:
    layout = {1: {s: s for s in range(1, 10)}, 2: {s: 10 + s for s in range(1, 9)}, 3: {1: 99, 2: 98}}
    with pytest.raises(PokerError) as raised:
        break_table(layout, table=3, seats_per_table=9, rng=random.Random(0))
    assert raised.value.rule == "TRN-9"


def test_final_table_redraw__TRN_9() -> None:
    layout = {4: {1: "a", 3: "b", 5: "c", 7: "d"}, 9: {2: "e", 4: "f", 6: "g", 8: "h", 9: "i"}}
    moves = final_table_draw(layout, final_table=9, seats_per_table=9, rng=random.Random(11))
    after = apply_moves(layout, moves)
    assert after[4] == {}
    assert sorted(after[9].values()) == list("abcdefghi")


def test_heads_up_button_posts_small_blind__TRN_9() -> None:
    # Heads-up at the fuller table: the next big blind is the player on the button now.
    layout = {1: {2: "a", 5: "b", 7: "c"}, 2: {4: "d"}}
    moves = balance_tables(layout, seats_per_table=9, buttons={1: 2, 2: 4})
    # Three-handed table 1, button 2: next button 5, SB 7, BB 2 -> "a" moves.
    assert [m.player_id for m in moves] == ["a"]


@st.composite
def layouts(draw: st.DrawFn) -> tuple[Layout, int, dict[int, int]]:
    seats_per_table = draw(st.integers(2, 10))
    table_count = draw(st.integers(1, 8))
    next_id = 0
    layout: Layout = {}
    buttons: dict[int, int] = {}
    for table in range(1, table_count + 1):
        seats = draw(st.sets(st.integers(1, seats_per_table), max_size=seats_per_table))
        layout[table] = {}
        for seat in sorted(seats):
            layout[table][seat] = next_id
            next_id += 1
        buttons[table] = draw(st.integers(1, seats_per_table))
    return layout, seats_per_table, buttons


def check_layout(layout: Layout, seats_per_table: int) -> None:
    for seats in layout.values():
        assert all(1 <= seat <= seats_per_table for seat in seats)
    everyone = [p for seats in layout.values() for p in seats.values()]
    assert len(everyone) == len(set(everyone))


@settings(max_examples=300)
@given(layouts())
def test_balancing_never_leaves_a_gap_over_one__TRN_9(
    case: tuple[Layout, int, dict[int, int]],
) -> None:
    layout, seats_per_table, buttons = case
    moves = balance_tables(layout, seats_per_table=seats_per_table, buttons=buttons)
    after = apply_moves(layout, moves)  # raises if a seat were used twice
    check_layout(after, seats_per_table)
    assert max(sizes(after)) - min(sizes(after)) <= 1
    assert players(after) == players(layout)
    # Each player moves at most once, and no table both gives and receives players.
    assert max(Counter(m.player_id for m in moves).values(), default=0) <= 1
    assert not {m.from_table for m in moves} & {m.to_table for m in moves}


@settings(max_examples=200)
@given(layouts(), st.integers(0, 2**32))
def test_breaking_keeps_everyone_and_balance__TRN_9(
    case: tuple[Layout, int, dict[int, int]], seed: int
) -> None:
    layout, seats_per_table, buttons = case
    if len(layout) < 2:
        return
    broken = next(iter(layout))
    rest = [t for t in layout if t != broken]
    free = sum(seats_per_table - len(layout[t]) for t in rest)
    if len(layout[broken]) > free:
        with pytest.raises(PokerError):
            break_table(layout, table=broken, seats_per_table=seats_per_table, rng=random.Random(seed))
        return
    moves = break_table(
        layout,
        table=broken,
        seats_per_table=seats_per_table,
        rng=random.Random(seed),
        buttons=buttons,
    )
    after = apply_moves(layout, moves)
    assert after[broken] == {}
    del after[broken]
    check_layout(after, seats_per_table)
    assert max(sizes(after)) - min(sizes(after)) <= 1
    assert players(after) == players(layout)


@settings(max_examples=100)
@given(st.integers(0, 400), st.integers(2, 10), st.integers(0, 2**32))
def test_draw_never_leaves_a_gap_over_one__TRN_9(count: int, seats_per_table: int, seed: int) -> None:
    layout = draw_seats(list(range(count)), seats_per_table=seats_per_table, rng=random.Random(seed))
    check_layout(layout, seats_per_table)
    assert max(sizes(layout)) - min(sizes(layout)) <= 1
    assert players(layout) == list(range(count))


@settings(max_examples=300)
@given(layouts(), st.integers(0, 2**32), st.data())
def test_breaking_many_tables_in_one_pass__TRN_9(
    case: tuple[Layout, int, dict[int, int]], seed: int, data: st.DataObject
) -> None:
    layout, seats_per_table, buttons = case
    order = data.draw(st.permutations(sorted(layout)))
    breaking = next_tables_to_break(layout, seats_per_table=seats_per_table, break_order=order)
    # Any choice of tables, too: within capacity it breaks, beyond it is refused.
    if data.draw(st.booleans()):
        breaking = data.draw(st.lists(st.sampled_from(sorted(layout)), unique=True))
    rest = [t for t in layout if t not in breaking]
    leaving = {p for t in breaking for p in layout[t].values()}
    if len(leaving) > sum(seats_per_table - len(layout[t]) for t in rest):
        with pytest.raises(PokerError):
            break_tables(layout, breaking=breaking, seats_per_table=seats_per_table, rng=random.Random(seed))
        return
    moves = break_tables(
        layout, breaking=breaking, seats_per_table=seats_per_table, rng=random.Random(seed), buttons=buttons
    )
    after = apply_moves(layout, moves)  # raises if a seat were used twice
    assert all(after[t] == {} for t in breaking)
    remaining = {t: after[t] for t in rest}
    check_layout(remaining, seats_per_table)
    assert players(remaining) == players(layout)
    if remaining:
        assert max(sizes(remaining)) - min(sizes(remaining)) <= 1
    # No one is sent to a table that breaks; each broken table's player leaves it once, first.
    assert not {m.to_table for m in moves} & set(breaking)
    first = {}
    for move in moves:
        first.setdefault(move.player_id, move)
    assert {p for p, m in first.items() if m.from_table in breaking} == leaving
    # The work is the moves: onto tables already within one, only the broken tables' players move.
    before = [len(layout[t]) for t in rest]
    if before and max(before) - min(before) <= 1:
        assert len(moves) == len(leaving)
    # Breaking what next_tables_to_break names leaves nothing more to break.
    if breaking == next_tables_to_break(layout, seats_per_table=seats_per_table, break_order=order):
        assert next_tables_to_break(remaining, seats_per_table=seats_per_table, break_order=order) == []
