"""The estimated wait on a waiting list (WTL-1), on plain numbers: never a promise, a range.

A game's recent turnover is the median time between its seat openings over the last two hours
(a seat opens when a player leaves any table of the game); a player `position` places down the
list waits about `position` of those intervals. The range around that middle is wide on purpose:
seat openings bunch (a table breaks, a session ends at midnight) and a range that is honest about
it is worth more to a player deciding whether to drive over than a minute-exact promise.

Times are seconds (floats or ints) on one clock the caller chooses (Unix time, or seconds since
midnight in the benchmark).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from statistics import median

# The turnover window: openings older than this say little about the wait now.
WINDOW_SECONDS = 2 * 60 * 60
# Fewer openings than this in the window give no estimate at all ("not enough turnover").
MIN_OPENINGS = 3
# The range shown: from LOW_FACTOR to HIGH_FACTOR times the middle, rounded outwards to ROUND.
LOW_FACTOR = 0.6
HIGH_FACTOR = 1.5
ROUND_SECONDS = 5 * 60


@dataclass(frozen=True)
class WaitRange:
    """An estimated wait: `low_seconds` to `high_seconds`, about `middle_seconds`."""

    low_seconds: int
    high_seconds: int
    middle_seconds: int

    @property
    def low_minutes(self) -> int:
        return self.low_seconds // 60

    @property
    def high_minutes(self) -> int:
        return self.high_seconds // 60


def turnover_seconds(openings: list[float], *, now: float, window: float = WINDOW_SECONDS) -> float | None:
    """The median time between consecutive seat openings within `window` before `now`; None when
    fewer than MIN_OPENINGS fell in it. Openings after `now` are ignored (not known yet)."""
    recent = sorted(t for t in openings if now - window <= t <= now)
    if len(recent) < MIN_OPENINGS:
        return None
    return float(median(b - a for a, b in pairwise(recent)))


def wait_middle(*, position: int, turnover: float) -> float:
    """The middle of the estimate for the player at `position` (1: next to be called)."""
    if position < 1:
        raise ValueError("a position on a list starts at 1")
    return max(0.0, turnover) * position


def wait_range(*, position: int, turnover: float | None) -> WaitRange | None:
    """The range shown to the player at `position`, or None when the turnover is unknown."""
    if turnover is None:
        return None
    middle = wait_middle(position=position, turnover=turnover)
    low = int(middle * LOW_FACTOR) // ROUND_SECONDS * ROUND_SECONDS
    high = -(-int(middle * HIGH_FACTOR + 0.999) // ROUND_SECONDS) * ROUND_SECONDS
    return WaitRange(low_seconds=low, high_seconds=max(high, ROUND_SECONDS), middle_seconds=int(middle))


def estimate(*, openings: list[float], now: float, position: int) -> WaitRange | None:
    """The whole estimate: the turnover of the last two hours, times the position, as a range."""
    return wait_range(position=position, turnover=turnover_seconds(openings, now=now))
