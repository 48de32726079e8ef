"""League standings (SER-4) from tournaments played through the real services: best-N totals,
the tie-break, a table by place and entrants, the formula, and corrections that change the
standings at once because nothing is stored."""

import random

import pytest

from cage.services import correction_approve, correction_request
from leagues.models import PointsKind
from leagues.selectors import league_standings_named
from leagues.services import league_update
from poker.leagues import TableRow
from reports.selectors.books import books_problems
from tests.leagues.conftest import S
from tests.tournaments.factories import T0
from tournaments.services.clock import clock_advance_due
from tournaments.services.payouts import bust_undo, entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_finish

pytestmark = pytest.mark.django_db


def table(league) -> list[tuple]:
    """(rank, name, points, best finish, results, counted) per row."""
    answer = league_standings_named(league, public=True)
    return [
        (row["rank"], row["name"], row["total"], row["best_finish"], row["played"], row["counted"])
        for row in answer["table"]
    ]


def test_totals_count_each_players_best_n_results_by_the_formula__SER_4(manager, people, play, make_league):
    p = people
    # 10 x sqrt(entrants / place): of 4, 20 / 14 / 12 / 10; of 5, 22 / 16 / 13 / 11 / 10.
    first = play([p["Dana"], p["Cyril"], p["Bob"], p["Ann"]], day=0)
    second = play([p["Ann"], p["Emil"], p["Dana"], p["Cyril"], p["Bob"]], day=1)
    third = play([p["Bob"], p["Cyril"], p["Ann"], p["Dana"]], day=2)
    league = make_league([first, second, third], best_n=2, formula_scale=10, formula_base=0)
    assert table(league) == [
        # Ann: 20, 10, 14 -> best two 34. Bob: 14, 22, 10 -> 36. Cyril: 12, 16, 12 -> 28.
        # Dana: 10, 13, 20 -> 33. Emil: 11.
        (1, "Bob", 36, 1, 3, 2),
        (2, "Ann", 34, 1, 3, 2),
        (3, "Dana", 33, 1, 3, 2),
        (4, "Cyril", 28, 2, 3, 2),
        (5, "Emil", 11, 4, 1, 1),
    ]
    # Every result counted, 5 more for each: Bob 46 + 15, Ann 44 + 15, Dana 43 + 15, Cyril 40 + 15.
    league = league_update(
        actor=manager,
        league=league,
        name=league.name,
        season_start=league.season_start,
        season_end=league.season_end,
        best_n=3,
        kind=league.kind,
        formula_scale=10,
        formula_base=5,
        table=[],
        active=True,
    )
    assert [row[:3] for row in table(league)] == [
        (1, "Bob", 61),
        (2, "Ann", 59),
        (3, "Dana", 58),
        (4, "Cyril", 55),
        (5, "Emil", 16),
    ]
    assert books_problems() == []


def test_equal_totals_go_to_the_better_best_finish__SER_4(people, play, make_league):
    p = people
    rows = [
        TableRow(place=1, min_entrants=2, max_entrants=None, points=10),
        TableRow(place=2, min_entrants=2, max_entrants=None, points=6),
        TableRow(place=3, min_entrants=2, max_entrants=None, points=4),
    ]
    first = play([p["Dana"], p["Cyril"], p["Bob"], p["Ann"]], day=0)
    second = play([p["Ann"], p["Bob"], p["Dana"], p["Cyril"]], day=1)
    league = make_league([first, second], best_n=5, kind=PointsKind.TABLE, table=rows)
    # Ann 10 (1st, 4th); Bob 6 + 4 = 10 (2nd, 3rd); Cyril 4 + 10 = 14; Dana 0 + 6 = 6.
    # Ann and Bob have 10: Ann's best finish is a win, so she is ahead.
    assert table(league) == [
        (1, "Cyril", 14, 1, 2, 2),
        (2, "Ann", 10, 1, 2, 2),
        (3, "Bob", 10, 2, 2, 2),
        (4, "Dana", 6, 2, 2, 2),
    ]


def test_table_points_follow_the_place_and_the_number_of_entrants__SER_4(people, play, make_league):
    p = people
    rows = [
        TableRow(place=1, min_entrants=2, max_entrants=4, points=50),
        TableRow(place=2, min_entrants=2, max_entrants=4, points=30),
        TableRow(place=1, min_entrants=5, max_entrants=None, points=80),
        TableRow(place=2, min_entrants=5, max_entrants=None, points=45),
        TableRow(place=3, min_entrants=5, max_entrants=None, points=25),
    ]
    small = play([p["Cyril"], p["Bob"], p["Ann"]], day=0)  # 3 entries
    big = play([p["Emil"], p["Dana"], p["Cyril"], p["Ann"], p["Bob"]], day=1)  # 5 entries
    league = make_league([small, big], best_n=2, kind=PointsKind.TABLE, table=rows)
    assert [row[:3] for row in table(league)] == [
        (1, "Bob", 110),  # 30 (2nd of 3) + 80 (1st of 5)
        (2, "Ann", 95),  # 50 + 45
        (3, "Cyril", 25),  # 0 (3rd of 3: no row) + 25 (3rd of 5)
        (4, "Dana", 0),  # 4th of 5: no row
        (5, "Emil", 0),  # 5th of 5: also 0, and Dana's best finish is better
    ]


def test_a_corrected_place_changes_the_standings_at_once__SER_4(floor, people, play, make_league):
    p = people
    tournament = play([p["Ann"], p["Bob"], p["Cyril"], p["Dana"]], finish=False)
    # Stopped before the end: 4 entries, Ann 4th, Bob 3rd, Cyril 2nd; Dana won and is placed.
    league = make_league([tournament], best_n=1)
    assert table(league) == [
        (1, "Dana", 20, 1, 1, 1),
        (2, "Cyril", 14, 2, 1, 1),
        (3, "Bob", 12, 3, 1, 1),
        (4, "Ann", 10, 4, 1, 1),
    ]
    # The last bust-out was the wrong player: undone, Dana is no longer the winner...
    bust_undo(actor=floor, tournament=tournament, now=T0 + 10 * S)
    assert table(league) == [
        (1, "Bob", 12, 3, 1, 1),
        (2, "Ann", 10, 4, 1, 1),
    ]
    # ... Dana busts in second place and Cyril wins: the standings follow at once.
    dana = tournament.entries.get(player=p["Dana"])
    entry_bust(actor=floor, tournament=tournament, busted=[(dana.pk, None)], now=T0 + 11 * S)
    tournament_finish(actor=floor, tournament=tournament, now=T0 + 12 * S)
    assert table(league) == [
        (1, "Cyril", 20, 1, 1, 1),
        (2, "Dana", 14, 2, 1, 1),
        (3, "Bob", 12, 3, 1, 1),
        (4, "Ann", 10, 4, 1, 1),
    ]
    assert books_problems() == []


def test_a_reversed_entry_is_no_entrant__SER_4(
    floor, manager, manager2, people, register, make_tournament, make_league
):
    p = people
    tournament = make_tournament(late_registration_level=0, start_at=T0)
    entries = {
        name: register(tournament, p[name], now=T0) for name in ("Ann", "Bob", "Cyril", "Dana", "Emil")
    }
    league = make_league([tournament], best_n=1)
    # Emil's buy-in was taken by mistake: reversed at the cage before the start (CAG-6).
    posting = entries["Emil"].cashier_transaction.posting
    correction_approve(
        actor=manager2, request=correction_request(actor=manager, posting=posting, reason="Wrong player")
    )
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(5))
    for i, name in enumerate(("Ann", "Bob", "Cyril"), start=1):
        entry_bust(actor=floor, tournament=tournament, busted=[(entries[name].pk, None)], now=T0 + i * S)
    # Four entrants, not five: the winner of four gets 20 (of five he would get 22).
    assert table(league) == [
        (1, "Dana", 20, 1, 1, 1),
        (2, "Cyril", 14, 2, 1, 1),
        (3, "Bob", 12, 3, 1, 1),
        (4, "Ann", 10, 4, 1, 1),
    ]
    assert books_problems() == []


def test_a_re_entry_counts_as_an_entrant_and_the_best_finish_counts__SER_4(
    floor, people, register, make_tournament, make_league
):
    p = people
    tournament = make_tournament(late_registration_level=3, max_reentries=1, start_at=T0)
    ann = register(tournament, p["Ann"], now=T0)
    others = [register(tournament, p[name], now=T0) for name in ("Bob", "Cyril", "Dana")]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(5))
    entry_bust(actor=floor, tournament=tournament, busted=[(ann.pk, None)], now=T0 + S)
    again = register(tournament, p["Ann"], now=T0 + 2 * S)
    league = make_league([tournament], best_n=1)
    assert table(league) == []  # registration still open: the field is not final, nothing scores
    clock_advance_due(tournament_id=tournament.pk, now=T0 + 10_000 * S)
    for i, entry in enumerate([others[0], again, others[1]], start=3):
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, None)], now=T0 + 10_000 * S + i * S)
    # Five entries: Ann's first entry 5th, Bob 4th, Ann again 3rd, Cyril 2nd, Dana 1st.
    assert table(league) == [
        (1, "Dana", 22, 1, 1, 1),
        (2, "Cyril", 16, 2, 1, 1),
        (3, "Ann", 13, 3, 1, 1),
        (4, "Bob", 11, 4, 1, 1),
    ]
