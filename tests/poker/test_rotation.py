"""The dealer rotation (DLR-2), pure: worked examples and property tests over whole nights."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from poker.rotation import (
    BREAK,
    DEAL,
    FREE,
    NO_DEALER,
    NO_RELIEF,
    DealerState,
    Gap,
    Move,
    Rules,
    dealt_in_stretch,
    next_push,
    plan,
)
from tests.poker.rotation_replay import Change, Replay, dealt_at, seated

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
RULES = Rules()


def minutes(n: int) -> timedelta:
    return timedelta(minutes=n)


def enough(tables: int) -> int:
    """Dealers that cover `tables` with a rest in every four downs, and one spare."""
    return math.ceil(4 * tables / 3) + 1


def test_next_push_is_on_the_half_hour_grid__DLR_2():
    assert next_push(T0, minutes(30)) == T0 + minutes(30)
    assert next_push(T0 + minutes(7), minutes(30)) == T0 + minutes(30)
    assert next_push(T0 + minutes(31), minutes(20)) == T0 + minutes(40)


def test_rest_of_fifteen_minutes_starts_a_new_stretch__DLR_2():
    downs = [(T0 + minutes(a), T0 + minutes(b)) for a, b in [(0, 30), (30, 60), (70, 100)]]
    assert dealt_in_stretch(downs, rest=minutes(15)) == minutes(90)
    late = [*downs[:2], (T0 + minutes(75), T0 + minutes(80))]
    assert dealt_in_stretch(late, rest=minutes(15)) == minutes(5)
    assert dealt_in_stretch(downs, rest=minutes(15), at=T0 + minutes(115)) == timedelta(0)


def test_each_dealer_moves_one_table_on_and_the_rested_one_comes_in__DLR_2():
    dealers = [
        DealerState(1, "c1", T0, minutes(30)),
        DealerState(2, "c2", T0, minutes(30)),
        DealerState(3, None, T0 - minutes(30)),
    ]
    result = plan(now=T0 + minutes(10), tables=["c1", "c2"], dealers=dealers)
    assert result.next_push_at == T0 + minutes(30)
    assert result.first_round() == (
        Move(T0 + minutes(30), 2, FREE, from_table="c2"),
        Move(T0 + minutes(30), 3, DEAL, table="c1"),
        Move(T0 + minutes(30), 1, DEAL, table="c2", from_table="c1"),
    )
    assert result.gaps == ()


def test_a_dealer_at_ninety_minutes_goes_on_a_fifteen_minute_break__DLR_2():
    dealers = [DealerState(1, "c1", T0, minutes(60)), DealerState(2, None, T0 - minutes(60))]
    result = plan(now=T0 + minutes(5), tables=["c1"], dealers=dealers)
    assert result.first_round() == (
        Move(T0 + minutes(30), 1, BREAK, from_table="c1", until=T0 + minutes(45)),
        Move(T0 + minutes(30), 2, DEAL, table="c1"),
    )


def test_a_table_opening_gets_a_free_dealer_at_once__DLR_2():
    dealers = [DealerState(1, "c1", T0, minutes(0)), DealerState(2, None, T0 - minutes(60))]
    result = plan(now=T0 + minutes(12), tables=["c1", "c2"], dealers=dealers)
    assert result.moves[0] == Move(T0 + minutes(12), 2, DEAL, table="c2")


def test_a_closed_table_frees_its_dealer__DLR_2():
    dealers = [DealerState(1, "c1", T0, minutes(0)), DealerState(2, "c2", T0, minutes(0))]
    result = plan(now=T0 + minutes(12), tables=["c2"], dealers=dealers)
    assert result.moves[0] == Move(T0 + minutes(12), 1, FREE, from_table="c1")


def test_short_of_dealers_the_board_names_the_tables_and_how_long__DLR_2():
    dealers = [DealerState(1, "c1", T0, minutes(30)), DealerState(2, "c2", T0, minutes(30))]
    result = plan(now=T0 + minutes(10), tables=["c1", "c2", "c3"], dealers=dealers)
    # Tables 1 and 2 keep their dealers without relief at 20:30; both break at 21:00 (90 minutes
    # dealt) and come back at 21:15 to the two tables waiting longest (3, then 1); table 2 waits
    # to the end of the plan, and the two dealers stay on without relief from 21:30.
    assert result.gaps == (
        Gap("c3", NO_DEALER, T0 + minutes(10), T0 + minutes(75)),
        Gap("c1", NO_RELIEF, T0 + minutes(30), T0 + minutes(60)),
        Gap("c2", NO_RELIEF, T0 + minutes(30), T0 + minutes(60)),
        Gap("c1", NO_DEALER, T0 + minutes(60), T0 + minutes(75)),
        Gap("c2", NO_DEALER, T0 + minutes(60), T0 + minutes(150)),
        Gap("c1", NO_RELIEF, T0 + minutes(90), T0 + minutes(150)),
        Gap("c3", NO_RELIEF, T0 + minutes(90), T0 + minutes(150)),
    )


# -- property tests: whole nights replayed as the services run them --


def check_invariants(replay: Replay, at: datetime, result) -> None:
    tables = seated(replay.dealers)  # no dealer at two tables, no two dealers at one table
    for dealer in replay.dealers:
        if dealer.table is not None:
            assert dealt_at(dealer, at, replay.rules) <= replay.rules.max_dealt, ("no break", dealer, at)
            assert dealer.table in replay.tables
    uncovered = [t for t in replay.tables if t not in tables]
    if uncovered:
        push_at = next_push(at, replay.rules.push)
        limit = replay.rules.max_dealt - (push_at - at)
        able = [
            d
            for d in replay.dealers
            if d.table is None
            and (d.available_at is None or d.available_at <= at)
            and dealt_at(d, at, replay.rules) <= limit
        ]
        assert not able, ("a table waits while a dealer is free", at, uncovered, able)


def check_covered(replay: Replay, at: datetime, result) -> None:
    if len(replay.dealers) >= enough(len(replay.tables)):
        assert set(seated(replay.dealers)) == set(replay.tables), (at, replay.dealers, replay.tables)


nights = st.tuples(
    st.integers(min_value=1, max_value=8),  # tables open at the start
    st.lists(  # changes: minute of the night, kind, which
        st.tuples(st.integers(0, 360), st.sampled_from(["open", "close", "in", "out"]), st.integers(0, 12)),
        max_size=25,
    ),
    st.integers(min_value=0, max_value=4),  # dealers beyond the tables at the start (maybe short)
)


@settings(max_examples=50, deadline=None)
@given(nights)
def test_no_dealer_at_two_tables_breaks_kept_and_no_table_waits_for_a_free_dealer__DLR_2(night):
    start_tables, changes, spare = night
    tables = [f"c{i}" for i in range(start_tables)]
    dealers = [DealerState(100 + i, None, T0) for i in range(start_tables + spare)]
    replay = Replay(tables=tables, dealers=dealers, checks=[check_invariants])
    replay.run(
        T0,
        T0 + minutes(420),
        [
            Change(T0 + minutes(m), kind, f"c{k}" if kind in ("open", "close") else 100 + k)
            for m, kind, k in changes
        ],
    )


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 10), st.lists(st.tuples(st.integers(0, 360), st.integers(0, 9)), max_size=20))
def test_every_open_table_has_a_dealer_whenever_there_are_enough__DLR_2(start_tables, changes):
    """Tables open and close through the night; the room keeps enough dealers for the most
    tables it opens (a rest in every four downs, and one spare)."""
    most = max(start_tables, 10)
    tables = [f"c{i}" for i in range(start_tables)]
    dealers = [DealerState(100 + i, None, T0) for i in range(enough(most))]
    replay = Replay(tables=tables, dealers=dealers, checks=[check_invariants, check_covered])
    replay.run(
        T0,
        T0 + minutes(480),
        [Change(T0 + minutes(m), "close" if m % 2 else "open", f"c{k}") for m, k in changes],
    )
