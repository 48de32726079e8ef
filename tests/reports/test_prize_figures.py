"""The prize figures (TRN-2, TRN-10): one source for every report, prizes paid are prize payouts
only, and refunds are a line of their own."""

import itertools
from dataclasses import asdict

import pytest

from reports.selectors import daily_report, range_report
from reports.services import rollup_build_missing
from tests.reports.known_day import DAY, NEXT, at

pytestmark = pytest.mark.django_db
LATER = at(12, day=12)
PRIZE_FIGURES = ["prize_contributions", "prizes_paid", "refunds"]
_keys = itertools.count(1)


def figures_of(figures) -> dict:
    values = asdict(figures)
    del values["label"], values["start"], values["end"]
    return values | {"house_result": figures.house_result}


def tournament_figures(line) -> dict:
    return {
        "prize_contributions": line.contributions_cents,
        "prizes_paid": line.prizes_paid_cents,
        "refunds": line.refunds_cents,
    }


@pytest.mark.parametrize("rolled_up", [False, True])
def test_daily_and_range_report_figures_agree_for_the_day__TRN_10(room, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    daily = daily_report(day=DAY, now=LATER)
    one_day = range_report(start=DAY, end=DAY, now=LATER)
    two_days = range_report(start=DAY, end=NEXT, now=LATER)
    expected = {
        "rake": 2_050,
        "fees": 6_000,
        "overlay": 46_000,
        "jackpot_drops": 200,
        "jackpot_payouts": 150,
        "cash_variance": -50,
        "prize_contributions": 54_000,
        "prizes_paid": 80_000,
        "refunds": 6_000,
        "house_result": -38_000,
    }
    assert figures_of(daily.figures) == expected
    for other in (one_day.total, one_day.periods[0], two_days.periods[0]):
        assert figures_of(other) == expected
    # The tournament tables of both reports give the same prize figures as the result rows.
    for tournaments in (daily.tournaments, one_day.tournaments):
        assert tournament_figures(tournaments.total) == {name: expected[name] for name in PRIZE_FIGURES}
    # The next day: the third prize, paid at 07:30 on the 11th.
    assert [two_days.periods[1].prizes_paid, two_days.periods[1].refunds] == [20_000, 0]
    assert two_days.total.prizes_paid == 100_000 == two_days.tournaments.total.prizes_paid_cents
