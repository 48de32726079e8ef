"""The estimated wait (WTL-1): median turnover of the last two hours times the position, a range."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.waitlist import WaitRange, estimate, turnover_seconds, wait_range

HOUR = 3600.0


def test_turnover_is_the_median_gap_of_the_last_two_hours__WTL_1() -> None:
    # Openings at 0, 10, 15, 35 and 40 minutes before now, and one 3 hours ago (outside).
    now = 10 * HOUR
    openings = [now - 3 * HOUR, now - 40 * 60, now - 35 * 60, now - 15 * 60, now - 10 * 60, now]
    # Gaps inside the window: 5, 20, 5, 10 minutes; median 7.5 minutes.
    assert turnover_seconds(openings, now=now) == 450.0


def test_too_few_openings_give_no_estimate__WTL_1() -> None:
    now = 10 * HOUR
    assert turnover_seconds([now - 60, now - 30], now=now) is None
    assert estimate(openings=[now - 60, now - 30], now=now, position=1) is None
    # An opening in the future of `now` is not known yet.
    assert turnover_seconds([now - 60, now - 30, now + 10], now=now) is None


def test_the_range_is_position_times_turnover_rounded_outwards__WTL_1() -> None:
    # 10 minutes between openings, third on the list: about 30 minutes, shown 15 to 45.
    assert wait_range(position=3, turnover=600.0) == WaitRange(
        low_seconds=15 * 60, high_seconds=45 * 60, middle_seconds=30 * 60
    )
    # Next in line with a fast game: 0 to 5 minutes, never "0 to 0".
    assert wait_range(position=1, turnover=60.0) == WaitRange(
        low_seconds=0, high_seconds=300, middle_seconds=60
    )
    assert wait_range(position=2, turnover=None) is None


def test_a_position_starts_at_one__WTL_1() -> None:
    with pytest.raises(ValueError):
        wait_range(position=0, turnover=60.0)


@settings(deadline=None)
@given(
    gaps=st.lists(st.integers(min_value=1, max_value=1800), min_size=2, max_size=40),
    position=st.integers(min_value=1, max_value=30),
)
def test_the_range_always_holds_its_middle_and_grows_with_position__WTL_1(gaps, position) -> None:
    openings, t = [], 0.0
    for gap in gaps:
        t += gap
        openings.append(t)
    now = openings[-1]
    here = estimate(openings=openings, now=now, position=position)
    if here is None:
        return
    assert here.low_seconds <= here.middle_seconds <= here.high_seconds
    assert here.low_seconds % 300 == 0 and here.high_seconds % 300 == 0
    further = estimate(openings=openings, now=now, position=position + 1)
    assert further is not None and further.middle_seconds >= here.middle_seconds
