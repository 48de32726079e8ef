"""The estimated wait (WTL-1): the rate of seat openings over the last two hours, how well it is
known and how bunched it comes, turned into the range the player's wait falls in."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.waitlist import Turnover, WaitRange, beta_cdf, beta_quantile, estimate, turnover, wait_range

HOUR = 3600.0
NOW = 10 * HOUR


def test_turnover_counts_the_gaps_from_the_first_opening_to_now__WTL_1() -> None:
    # Openings 40, 35, 15 and 10 minutes before now and at now; one 3 hours ago is outside.
    openings = [NOW - 3 * HOUR, NOW - 40 * 60, NOW - 35 * 60, NOW - 15 * 60, NOW - 10 * 60, NOW]
    assert turnover(openings, now=NOW) == Turnover(gaps=4, span_seconds=2400.0, bunch=1.0)
    assert turnover(openings, now=NOW).mean_gap_seconds == 600.0


def test_seats_that_open_a_table_at_a_time_count_as_bunches__WTL_1() -> None:
    # Two tables opened (nine seats at once) 100 and 10 minutes ago, single seats between.
    openings = [NOW - 100 * 60] * 9 + [NOW - 60 * 60, NOW - 30 * 60] + [NOW - 10 * 60] * 9
    seen = turnover(openings, now=NOW)
    assert (seen.gaps, seen.span_seconds, round(seen.bunch, 2)) == (19, 6000.0, 5.7)


def test_too_few_openings_give_no_estimate__WTL_1() -> None:
    assert turnover([NOW - 60, NOW - 30], now=NOW) is None
    assert estimate(openings=[NOW - 60, NOW - 30], now=NOW, position=1) is None
    # An opening in the future of `now` is not known yet.
    assert turnover([NOW - 60, NOW - 30, NOW + 10], now=NOW) is None
    assert wait_range(position=2, seen=None) is None


def test_the_range_covers_the_wait_not_just_its_middle__WTL_1() -> None:
    # A seat every 10 minutes for two hours. Third on the list: about 28 minutes, and the range
    # runs from 5 to 90 minutes, where the wait for three random openings really falls.
    steady = turnover([NOW - 120 * 60 + 10 * 60 * i for i in range(13)], now=NOW)
    assert wait_range(position=3, seen=steady) == WaitRange(
        low_seconds=300, high_seconds=5400, middle_seconds=1684
    )
    # Next in line: 0 to 40 minutes, never "0 to 0".
    assert wait_range(position=1, seen=steady) == WaitRange(
        low_seconds=0, high_seconds=2400, middle_seconds=431
    )


def test_a_position_starts_at_one__WTL_1() -> None:
    with pytest.raises(ValueError):
        wait_range(position=0, seen=Turnover(gaps=4, span_seconds=2400.0, bunch=1.0))


@pytest.mark.parametrize(
    ("a", "b", "x"), [(1, 10, 0.1), (3, 20, 0.2), (30, 4, 0.9), (2, 2, 0.5), (5, 7, 0.33)]
)
def test_the_incomplete_beta_agrees_with_the_binomial_sum__WTL_1(a, b, x) -> None:
    # For whole a and b, I_x(a, b) is the chance of at least a successes in a + b - 1 trials.
    n = a + b - 1
    exact = sum(comb(n, j) * x**j * (1 - x) ** (n - j) for j in range(a, n + 1))
    assert beta_cdf(x, a, b) == pytest.approx(exact, abs=1e-12)
    assert beta_cdf(beta_quantile(exact, a, b), a, b) == pytest.approx(exact, abs=1e-9)


@settings(deadline=None)
@given(
    gaps=st.lists(st.integers(min_value=0, max_value=1800), min_size=2, max_size=40),
    position=st.integers(min_value=1, max_value=30),
)
def test_the_range_always_holds_its_middle_and_grows_with_position__WTL_1(gaps, position) -> None:
    openings, t = [], 0.0
    for gap in gaps:
        t += gap
        openings.append(t)
    now = openings[-1] + 1
    here = estimate(openings=openings, now=now, position=position)
    if here is None:
        return
    assert here.low_seconds <= here.middle_seconds <= here.high_seconds
    assert here.low_seconds % 300 == 0 and here.high_seconds % 300 == 0
    further = estimate(openings=openings, now=now, position=position + 1)
    assert further is not None and further.middle_seconds >= here.middle_seconds
    assert further.high_seconds >= here.high_seconds
