"""Issue 15: how good is the estimated wait a player sees on his phone (WTL-1)?

Run from the project root:  .venv/bin/python bench/wait_estimate.py [--days N] [--seed S]
Pure Python (poker.waitlist), no database. It replays a day of one game's turnover, 12:00 to
06:00: seats open as a Poisson stream whose rate follows a card room's day (slow afternoon,
busy evening and night, thin early morning), players join the list as another stream (the
evening queue builds, the night drains it), and one in ten leaves the list before his seat
comes. First come, first seated: each seat opening seats the first player still waiting.

At each join the player is shown the estimate his phone shows: the median time between seat
openings over the last two hours, times his position (poker.waitlist.estimate). What actually
happened is the time from his join to his seat. The script prints, over every seated player
who got an estimate, the median absolute error of the estimate's middle against the real wait,
the median real wait, their ratio (the figure: under 0.5 means the middle is off by less than
half a typical wait), and how often the real wait fell inside the range shown.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from poker.waitlist import estimate

HOUR = 3600.0
# (from hour, to hour after the day's 12:00 start, seat openings per hour, joins per hour)
DAY = [
    (0, 5, 6.0, 7.0),  # 12:00-17:00: a few tables, slow
    (5, 9, 12.0, 15.0),  # 17:00-21:00: after work, the list grows
    (9, 14, 15.0, 12.0),  # 21:00-02:00: every table runs, the list drains
    (14, 18, 5.0, 3.0),  # 02:00-06:00: the last tables
]
LEAVE_SHARE = 0.10
TARGET_RATIO = 0.5


def poisson_times(rng: random.Random, offset: float, column: int) -> list[float]:
    times = []
    for start, end, *rates in DAY:
        rate = rates[column] / HOUR
        t = offset + start * HOUR
        while True:
            t += rng.expovariate(rate)
            if t >= offset + end * HOUR:
                break
            times.append(t)
    return times


def replay_day(rng: random.Random, offset: float) -> list[tuple[float, float, float, float]]:
    """[(estimate's middle, low, high, actual wait)] in seconds, for each seated player."""
    openings = poisson_times(rng, offset, 0)
    joins = poisson_times(rng, offset, 1)
    leaves = {
        index: join + rng.uniform(0.2, 1.5) * HOUR
        for index, join in enumerate(joins)
        if rng.random() < LEAVE_SHARE
    }
    events = sorted([(t, 1, i) for i, t in enumerate(joins)] + [(t, 0, -1) for t in openings])
    queue: list[int] = []
    shown: dict[int, tuple[float, float, float]] = {}
    seen_openings: list[float] = []
    results = []
    for t, kind, index in events:
        queue = [i for i in queue if leaves.get(i, float("inf")) > t]
        if kind == 1:
            queue.append(index)
            wait = estimate(openings=seen_openings, now=t, position=len(queue))
            if wait is not None:
                shown[index] = (wait.middle_seconds, wait.low_seconds, wait.high_seconds)
        else:
            seen_openings.append(t)
            if queue:
                seated = queue.pop(0)
                if seated in shown:
                    results.append((*shown[seated], t - joins[seated]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = []
    for day in range(args.days):
        results += replay_day(rng, day * 24 * HOUR)
    errors = [abs(middle - actual) for middle, _low, _high, actual in results]
    actual = [row[3] for row in results]
    inside = sum(1 for _m, low, high, real in results if low <= real <= high) / len(results)
    mae, median_wait = statistics.median(errors), statistics.median(actual)
    print(f"days replayed             = {args.days} (seed {args.seed})")
    print(f"players seated, estimated = {len(results)}")
    print(f"median real wait          = {median_wait / 60:.1f} min")
    print(f"median absolute error     = {mae / 60:.1f} min")
    print(f"real wait inside the range shown = {inside:.0%}")
    print(f"RATIO wait_mae/median_wait = {mae / median_wait:.2f} (target < {TARGET_RATIO})")


if __name__ == "__main__":
    main()
