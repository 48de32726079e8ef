"""The estimated wait on a waiting list (WTL-1), on plain numbers: never a promise, a range.

A seat opens when a player leaves any table of the game. Over the last two hours the game's
openings give its rate (openings per second) and how bunched they come (a table that opens or
breaks frees many seats at once). The player `position` places down the list waits for
`position` more openings; the range shown is where that wait falls with a stated probability,
given what the last two hours say about the rate, its uncertainty and the bunching.

Why not the median gap between openings: when seats open at random, the median gap is about
0.69 of the mean gap, so a range built on it is short; the real wait ended above it 31-51 % of
the time. Here the range comes from the predictive distribution of the wait:

- `n` gaps were seen over `span` seconds (from the first opening in the window to now, so the
  time since the last opening counts too). The openings' spread (the variance of their counts
  in slices of the span, over the mean: 1 for seats opening one by one at a steady random rate)
  says they come in bunches of `d` seats: `n / d` bunches seen, `position / d` needed.
- With the bunch rate unknown (a Gamma posterior from the bunches seen in `span`) and the
  bunches arriving at random, the wait divided by `span` follows a beta-prime distribution with
  parameters (`position / d`, `n / d`). Its quantiles are those of a beta distribution, B,
  as B / (1 - B), computed here with the regularised incomplete beta function.
- The rate also drifts (the evening rush, the night's last tables): the longer the wait, the
  less the last two hours say about it. That uncertainty is added to the rate's (as a squared
  coefficient of variation growing by DRIFT_PER_HOUR per hour of expected wait), which lowers
  the bunches the rate counts as known from and widens the range both ways.

`bench/wait_estimate.py` checks the shares that matter to a player: at least 80 % of real waits
inside the range, and no more than 10 % above it, on a month's replay and on simulated queues.

Times are seconds (floats or ints) on one clock the caller chooses (Unix time, or seconds since
midnight in the benchmark).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean, pvariance

# The turnover window: openings older than this say little about the wait now.
WINDOW_SECONDS = 2 * 60 * 60
# Fewer openings than this in the window give no estimate at all ("not enough turnover").
MIN_OPENINGS = 3
# The range shown: from the LOW_SHARE to the HIGH_SHARE quantile of the predictive wait, rounded
# outwards to ROUND. The shares leave room for what the model does not know (the rate changes
# through the evening; a player ahead leaves the list): bench/wait_estimate.py measures it.
LOW_SHARE = 0.08
HIGH_SHARE = 0.95
ROUND_SECONDS = 5 * 60
# A bunch is never taken as larger than a full table; the spread is counted in BINS slices.
MAX_BUNCH = 9.0
BINS = 8
# How far the rate drifts: its squared coefficient of variation grows this much per hour of
# wait (chosen with bench/wait_estimate.py's swinging-rate queue, the hardest of its scenarios).
DRIFT_PER_HOUR = 0.12


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


@dataclass(frozen=True)
class Turnover:
    """What the window says about a game's seat openings: `gaps` intervals between openings over
    `span_seconds` (the first opening to now), coming in bunches of `bunch` seats on average
    (1.0: one by one)."""

    gaps: int
    span_seconds: float
    bunch: float

    @property
    def mean_gap_seconds(self) -> float:
        return self.span_seconds / self.gaps


def turnover(openings: list[float], *, now: float, window: float = WINDOW_SECONDS) -> Turnover | None:
    """The game's turnover from its openings within `window` before `now`; None when fewer than
    MIN_OPENINGS fell in it. Openings after `now` are ignored (not known yet)."""
    recent = sorted(t for t in openings if now - window <= t <= now)
    if len(recent) < MIN_OPENINGS:
        return None
    span = max(now - recent[0], 1.0)
    # The spread: the openings counted in BINS equal slices of the span. Seats that open one by
    # one at a steady random rate give counts whose variance equals their mean; bunches (a
    # table's seats at once) and a rate that changes give more, and the range widens with it.
    counts = [0] * BINS
    for t in recent:
        counts[min(BINS - 1, int((t - recent[0]) / span * BINS))] += 1
    mean = fmean(counts)
    bunch = min(MAX_BUNCH, max(1.0, pvariance(counts, mean) / mean))
    return Turnover(gaps=len(recent) - 1, span_seconds=span, bunch=bunch)


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-12:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b): P(B <= x) for B ~ Beta(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def beta_quantile(share: float, a: float, b: float) -> float:
    """The x with P(B <= x) = share for B ~ Beta(a, b), by bisection (to 1e-12)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2.0
        if beta_cdf(middle, a, b) < share:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def wait_quantile(*, share: float, position: int, seen: Turnover, horizon: float = 0.0) -> float:
    """The wait (seconds) the player at `position` passes with probability `share`, when the
    rate may drift over a wait of about `horizon` seconds."""
    if position < 1:
        raise ValueError("a position on a list starts at 1")
    # How well the rate is known, as the squared coefficient of variation of its estimate: the
    # bunches seen, plus the drift of a rate that changes through the evening over the wait.
    uncertainty = seen.bunch / seen.gaps + DRIFT_PER_HOUR * horizon / 3600.0
    known = 1.0 / uncertainty
    b = beta_quantile(share, position / seen.bunch, known)
    return seen.span_seconds * (known * seen.bunch / seen.gaps) * b / (1.0 - b)


def wait_range(*, position: int, seen: Turnover | None) -> WaitRange | None:
    """The range shown to the player at `position`, or None when the turnover is unknown."""
    if position < 1:
        raise ValueError("a position on a list starts at 1")
    if seen is None:
        return None
    horizon = position * seen.mean_gap_seconds
    low = wait_quantile(share=LOW_SHARE, position=position, seen=seen, horizon=horizon)
    middle = wait_quantile(share=0.5, position=position, seen=seen, horizon=horizon)
    high = wait_quantile(share=HIGH_SHARE, position=position, seen=seen, horizon=horizon)
    low_rounded = int(low) // ROUND_SECONDS * ROUND_SECONDS
    high_rounded = -(-math.ceil(high) // ROUND_SECONDS) * ROUND_SECONDS
    return WaitRange(
        low_seconds=low_rounded, high_seconds=max(high_rounded, ROUND_SECONDS), middle_seconds=int(middle)
    )


def estimate(*, openings: list[float], now: float, position: int) -> WaitRange | None:
    """The whole estimate: the last two hours' turnover, the player's position, as a range."""
    return wait_range(position=position, seen=turnover(openings, now=now))
