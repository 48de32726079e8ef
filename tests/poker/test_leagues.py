"""League arithmetic (SER-4): points from the square-root formula and from a table, a season's
best N results, and the ranking with its tie-break. Exact cases, then properties."""

from decimal import ROUND_HALF_UP, Decimal, localcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker.leagues import (
    LeagueInputError,
    Result,
    TableRow,
    formula_check,
    formula_points,
    season_total,
    standings,
    table_check,
    table_points,
)


def test_formula_points_exact_values__SER_4():
    # 10 x sqrt(100 / p): 100, 70.71 -> 71, 57.74 -> 58, 50, ..., 10 for the last.
    assert [formula_points(scale=10, base=0, entrants=100, place=p) for p in (1, 2, 3, 4, 100)] == [
        100,
        71,
        58,
        50,
        10,
    ]
    # A flat 5 for every finish on top.
    assert formula_points(scale=10, base=5, entrants=9, place=1) == 35
    # Halves round up: 1 x sqrt(25 / 4) = 2.5 -> 3; 1 x sqrt(9/4)=1.5 -> 2.
    assert formula_points(scale=1, base=0, entrants=25, place=4) == 3
    assert formula_points(scale=1, base=0, entrants=9, place=4) == 2
    # A field of one: the only player scores the scale.
    assert formula_points(scale=7, base=0, entrants=1, place=1) == 7


def test_formula_refuses_an_impossible_finish__SER_4():
    with pytest.raises(LeagueInputError):
        formula_points(scale=10, base=0, entrants=5, place=6)
    with pytest.raises(LeagueInputError):
        formula_points(scale=10, base=0, entrants=5, place=0)


def test_formula_that_gives_negative_points_is_refused__SER_4():
    with pytest.raises(LeagueInputError) as scale:
        formula_check(scale=-1, base=100)
    assert scale.value.code == "negative_scale"
    with pytest.raises(LeagueInputError) as base:
        formula_check(scale=10, base=-11)
    assert (base.value.code, base.value.values) == ("negative_points", {"points": -1})
    formula_check(scale=10, base=-10)  # the last place scores 0: allowed


def test_table_points_by_place_and_entrants__SER_4():
    rows = [
        TableRow(place=1, min_entrants=2, max_entrants=20, points=50),
        TableRow(place=1, min_entrants=21, max_entrants=None, points=80),
        TableRow(place=2, min_entrants=2, max_entrants=None, points=30),
    ]
    table_check(rows)
    assert table_points(rows, entrants=20, place=1) == 50
    assert table_points(rows, entrants=21, place=1) == 80
    assert table_points(rows, entrants=500, place=2) == 30
    assert table_points(rows, entrants=20, place=3) == 0  # no row: no points
    assert table_points(rows, entrants=1, place=1) == 0


@pytest.mark.parametrize(
    ("rows", "code", "row"),
    [
        ([TableRow(1, 2, 10, -5)], "negative_points", 1),
        ([TableRow(0, 2, 10, 5)], "bad_place", 1),
        ([TableRow(1, 10, 2, 5)], "bad_range", 1),
        ([TableRow(11, 2, 10, 5)], "place_out_of_range", 1),
        ([TableRow(1, 2, 10, 5), TableRow(2, 2, 10, 3), TableRow(1, 10, None, 9)], "overlap", 3),
        ([TableRow(1, 2, None, 5), TableRow(1, 50, 60, 9)], "overlap", 2),
    ],
)
def test_bad_tables_are_refused_naming_the_row__SER_4(rows, code, row):
    with pytest.raises(LeagueInputError) as error:
        table_check(rows)
    assert (error.value.code, error.value.row) == (code, row)


def test_best_n_counts_the_best_results_only__SER_4():
    results = [Result(1, 5, 20), Result(2, 1, 60), Result(3, 9, 5), Result(4, 2, 40)]
    total, counted = season_total(results, best_n=2)
    assert total == 100
    assert [r.tournament for r in counted] == [2, 4]
    assert season_total(results, best_n=10)[0] == 125
    with pytest.raises(LeagueInputError):
        season_total(results, best_n=0)


def test_ties_go_to_the_better_best_finish_then_the_next_then_more_results__SER_4():
    by_player = {
        # 100 points each:
        1: [Result(1, 3, 50), Result(2, 3, 50)],  # best 3rd
        2: [Result(1, 2, 70), Result(2, 9, 30)],  # best 2nd: ahead of 1
        3: [Result(1, 1, 100)],  # a win: first of the three
        4: [Result(1, 2, 60), Result(2, 9, 30), Result(3, 12, 10)],  # as 2, and a third result
        5: [Result(1, 4, 90)],
        6: [Result(2, 4, 90)],  # same as 5 in every way: shares the rank
        7: [Result(3, 1, 200)],
    }
    rows = standings(by_player, best_n=3)
    assert [(r.player, r.rank, r.total) for r in rows] == [
        (7, 1, 200),
        (3, 2, 100),
        (4, 3, 100),
        (2, 4, 100),
        (1, 5, 100),
        (5, 6, 90),
        (6, 6, 90),
    ]


@given(
    scale=st.integers(0, 1000),
    base=st.integers(-1000, 1000),
    entrants=st.integers(1, 5000),
    data=st.data(),
)
def test_formula_is_the_rounded_root_and_never_negative_when_accepted__SER_4(scale, base, entrants, data):
    place = data.draw(st.integers(1, entrants))
    points = formula_points(scale=scale, base=base, entrants=entrants, place=place)
    with localcontext() as context:
        context.prec = 60
        exact = (Decimal(scale) * (Decimal(entrants) / Decimal(place)).sqrt()).quantize(
            Decimal(1), rounding=ROUND_HALF_UP
        )
    assert points == int(exact) + base
    # A better place never earns fewer points.
    if place > 1:
        assert formula_points(scale=scale, base=base, entrants=entrants, place=place - 1) >= points
    if scale + base >= 0:
        formula_check(scale=scale, base=base)
        assert points >= 0


@given(
    st.dictionaries(
        st.integers(1, 30),
        st.lists(st.tuples(st.integers(1, 40), st.integers(0, 300)), min_size=1, max_size=8),
        min_size=1,
        max_size=20,
    ),
    st.integers(1, 10),
)
def test_standings_totals_are_the_best_n_and_ranks_follow_them__SER_4(raw, best_n):
    by_player = {
        player: [Result(t, place, points) for t, (place, points) in enumerate(results)]
        for player, results in raw.items()
    }
    rows = standings(by_player, best_n=best_n)
    assert sorted(r.player for r in rows) == sorted(by_player)
    for row in rows:
        points = sorted((r.points for r in by_player[row.player]), reverse=True)
        assert row.total == sum(points[:best_n])
        assert len(row.counted) == min(best_n, len(points))
    assert [r.total for r in rows] == sorted((r.total for r in rows), reverse=True)
    # Ranks: 1 first, never going down, and a rank is the position of the first who holds it.
    assert rows[0].rank == 1
    for position, row in enumerate(rows, start=1):
        assert row.rank <= position
        assert rows[row.rank - 1].rank == row.rank
