"""Date-range reports: per day, week and month, against the previous period, by game and stakes,
tournament profit and loss, the jackpot fund's history; player activity and the AML list."""

from datetime import date

import pytest

from cashier.services import ledger_days_close_missing
from reports.selectors import player_activity, range_report, tournament_report
from reports.services import rollup_build_day, rollup_build_missing
from tests.reports.known_day import DAY, NEXT, at

pytestmark = pytest.mark.django_db
LATER = at(12, day=12)


@pytest.mark.parametrize("rolled_up", [False, True])
def test_range_per_day_with_previous_period(room, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    report = range_report(start=DAY, end=NEXT, group="day", now=LATER)
    assert [(p.label, p.rake, p.fees, p.overlay) for p in report.periods] == [
        ("2026-11-10", 2_050, 6_000, 46_000),
        ("2026-11-11", 50, 0, 0),
    ]
    assert (report.total.rake, report.total.house_result) == (2_100, 2_100 + 6_000 - 46_000 - 50)
    assert (report.previous.start, report.previous.end, report.previous.rake) == (
        date(2026, 11, 8),
        date(2026, 11, 9),
        0,
    )
    rake = report.comparison[0]
    assert (str(rake.label), rake.current, rake.previous, rake.change, rake.change_bp) == (
        "Rake",
        2_100,
        0,
        2_100,
        None,
    )
    assert [(d.day, d.opening, d.drops, d.payouts, d.closing) for d in report.jackpot_days] == [
        (DAY, 0, 200, 150, 50),
        (NEXT, 50, 0, 0, 50),
    ]
    stakes = {line.label: line for line in report.cash.stakes}
    assert (stakes["NLHE 2/5"].rake_cents, stakes["NLHE 2/5"].minutes_open) == (
        1_050,
        780,
    )
    assert stakes["NLHE 2/5"].previous_rake_cents == 0
    tables = {line.table_number: line for line in report.cash.tables}
    assert (tables[2].hands, tables[2].minutes_open, tables[2].drop_counts) == (2, 660, 1)
    daily, turbo = report.tournaments.lines
    assert (daily.entries, daily.prizes_paid_cents, daily.net_cents, daily.prize_pool_cents) == (
        12,
        100_000,
        -40_000,
        100_000,
    )
    assert (turbo.refunds_cents, turbo.net_cents) == (6_000, 0)
    assert report.tournament_entries == [("2026-11-10", 15), ("2026-11-11", 0)]
    assert not report.unattributed.any


def test_a_day_the_ledger_closed_before_its_rollups_counts_once(room):
    """The ledger's beat task may close a day before the reports roll it up: that day's account
    totals are read once (the jackpot fund's opening), not also from its entries."""
    assert ledger_days_close_missing(now=LATER) == [DAY, NEXT]
    report = range_report(start=NEXT, end=NEXT, group="day", now=LATER)
    assert [(d.day, d.opening, d.drops, d.payouts, d.closing) for d in report.jackpot_days] == [
        (NEXT, 50, 0, 0, 50)
    ]
    assert [(p.label, p.rake, p.fees, p.overlay) for p in report.periods] == [("2026-11-11", 50, 0, 0)]
    assert report.previous.rake == 2_050


def test_range_against_previous_period_shows_the_change(room):
    rollup_build_missing(now=LATER)
    # The 11th against the 10th: rake 0.50 against 20.50.
    report = range_report(start=NEXT, end=NEXT, group="day", now=LATER)
    rake = report.comparison[0]
    assert (rake.current, rake.previous, rake.change, rake.change_bp) == (50, 2_050, -2_000, -9_756)
    stakes = {line.label: line for line in report.cash.stakes}
    assert (
        stakes["NLHE 1/2"].rake_cents,
        stakes["NLHE 1/2"].previous_rake_cents,
    ) == (
        0,
        1_050,
    )
    assert stakes["NLHE 2/5"].rake_change_cents == 50 - 1_000
    assert (report.tournaments.previous.fees_cents, report.tournaments.previous.overlay_cents) == (
        6_000,
        46_000,
    )


def test_range_per_week_and_month(room):
    rollup_build_missing(now=LATER)
    weekly = range_report(start=date(2026, 11, 1), end=date(2026, 11, 30), group="week", now=LATER)
    assert [(p.label, p.start, p.end, p.rake) for p in weekly.periods][:3] == [
        ("2026-W44", date(2026, 11, 1), date(2026, 11, 1), 0),
        ("2026-W45", date(2026, 11, 2), date(2026, 11, 8), 0),
        ("2026-W46", date(2026, 11, 9), date(2026, 11, 15), 2_100),
    ]
    assert [(j.label, j.opening, j.drops, j.payouts, j.closing) for j in weekly.jackpot_periods][2] == (
        "2026-W46",
        0,
        200,
        150,
        50,
    )
    monthly = range_report(start=date(2026, 10, 15), end=date(2026, 11, 30), group="month", now=LATER)
    assert [(p.label, p.rake, p.fees) for p in monthly.periods] == [
        ("2026-10", 0, 0),
        ("2026-11", 2_100, 6_000),
    ]
    assert monthly.tournament_entries == [("2026-10", 0), ("2026-11", 15)]


@pytest.mark.parametrize("rolled_up", [False, True])
def test_player_activity_with_filters(room, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    activity = player_activity(start=DAY, end=NEXT, query="A", now=LATER)
    [a] = activity.lines
    assert (a.name.split()[-1], a.sessions, a.minutes_played) == ("A", 1, 655)
    assert (a.cash_game_in_cents, a.cash_game_out_cents, a.cash_game_net_cents, a.won_cents) == (
        10_000,
        20_000,
        10_000,
        150,
    )
    # H played twice at table 3: 105 and 105 minutes.
    [h] = player_activity(start=DAY, end=DAY, query=room.players["H"].card_number, now=LATER).lines
    assert (h.sessions, h.minutes_played, h.cash_game_in_cents, h.cash_game_out_cents) == (
        2,
        210,
        30_000,
        44_200,
    )
    # E cashed out on the 11th: the session counts then.
    [e] = player_activity(start=NEXT, end=NEXT, query="E", now=LATER).lines
    assert (e.sessions, e.minutes_played, e.cash_game_in_cents, e.cash_game_out_cents) == (1, 625, 0, 210_000)
    tournaments = player_activity(start=DAY, end=DAY, activity="tournaments", order="tournaments", now=LATER)
    assert tournaments.count == 13  # ten players in T1, three in T2
    assert [(line.name.split()[-1], line.tournament_entries) for line in tournaments.lines[:2]] == [
        ("P1", 2),
        ("P2", 2),
    ]
    cash = player_activity(start=DAY, end=DAY, activity="cash", order="net", now=LATER)
    # Lost most first: E's 2,000.00 is still on table 2 at the end of the day.
    assert [line.name.split()[-1] for line in cash.lines] == ["E", "F", "G", "C", "D", "B", "A", "H"]
    assert cash.count == 8
    assert player_activity(start=DAY, end=DAY, order="hours", limit=1, now=LATER).lines[0].name.endswith(" A")


@pytest.mark.parametrize("rolled_up", [False, True])
def test_long_ranges_sum_tournaments_in_sql_to_the_same_figures(room, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    listed = tournament_report(
        start=DAY, end=NEXT, previous=(date(2026, 11, 8), date(2026, 11, 9)), now=LATER
    )
    grouped = tournament_report(
        start=DAY, end=NEXT, previous=(date(2026, 11, 8), date(2026, 11, 9)), now=LATER, listed=1
    )
    assert grouped.count == listed.count == 2
    assert grouped.total == listed.total
    assert [(s.name, s.tournaments, s.with_overlay, s.net_cents) for s in grouped.series] == [
        ("Turbo 20", 1, 0, 0),
        ("Daily 50", 1, 1, -40_000),
    ]
    assert [(s.name, s.fees_cents, s.overlay_cents) for s in grouped.series] == [
        (s.name, s.fees_cents, s.overlay_cents) for s in listed.series
    ]
    assert [line.tournament.name for line in grouped.overlaid] == ["Daily 50"]
    assert grouped.lines == listed.lines  # read on demand (the CSV)


@pytest.mark.parametrize(
    ("activity", "order"), [("", "name"), ("cash", "net"), ("tournaments", "tournaments"), ("", "hours")]
)
def test_player_activity_adds_the_live_day_to_the_rollups_exactly(room, activity, order):
    # The 10th rolled up, the 11th still live (it is 12:00 on the 11th).
    rollup_build_day(day=DAY, now=at(12, day=11))
    live = player_activity(start=DAY, end=NEXT, activity=activity, order=order, now=at(12, day=11), limit=5)
    rollup_build_missing(now=LATER)
    rolled = player_activity(start=DAY, end=NEXT, activity=activity, order=order, now=LATER, limit=5)
    assert live == rolled
    assert len(live.lines) == min(5, live.count)
