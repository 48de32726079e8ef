"""Issues 15 and 28: is the wait a player sees on his phone honest (WTL-1)?

Run from the project root:  .venv/bin/python bench/wait_estimate.py [--days N] [--seed S]
Pure Python (poker.waitlist), no database. Each scenario replays a stream of seat openings and a
stream of players joining one game's list; one in ten leaves the list before his seat comes.
First come, first seated: each seat opening seats the first player still waiting. At each join
the player is shown the range his phone shows (poker.waitlist.estimate, from the openings of the
last two hours); what actually happened is the time from his join to his seat.

The scenarios:
- month: a card room's day, 12:00 to 06:00, for `--days` days: the rates follow the day (slow
  afternoon, the evening queue builds, the night drains it, thin early morning);
- steady: seats open at one steady random rate (a Poisson stream), the list as busy;
- bunches: single seats open at random, and now and then a new table opens nine seats at once;
- changing: the rate swings between slow and busy every few hours, faster than a day does.

Printed per scenario: players seated with an estimate, the share of real waits inside the range
shown (target: at least 80 %), the share above it (the player drove over and still waited:
target at most 10 %), the share below, and the median absolute error of the range's middle
against the median real wait (target under 0.5).
"""

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
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
TARGET_INSIDE = 0.80
TARGET_ABOVE = 0.10
TARGET_RATIO = 0.5


def stream(
    rng: random.Random, rate_per_hour: Callable[[float], float], start: float, end: float
) -> list[float]:
    """A Poisson stream whose rate changes with time, by thinning a stream at the top rate."""
    top = max(rate_per_hour(start + step * (end - start) / 200) for step in range(201)) / HOUR
    times, t = [], start
    while True:
        t += rng.expovariate(top)
        if t >= end:
            return times
        if rng.random() * top <= rate_per_hour(t) / HOUR:
            times.append(t)


def replay(
    rng: random.Random, openings: list[float], joins: list[float]
) -> list[tuple[float, float, float, float]]:
    """[(the range's middle, low, high, real wait)] in seconds, for each seated player."""
    openings, joins = sorted(openings), sorted(joins)
    leaves = {
        index: join + rng.uniform(0.2, 1.5) * HOUR
        for index, join in enumerate(joins)
        if rng.random() < LEAVE_SHARE
    }
    events = sorted([(t, 1, i) for i, t in enumerate(joins)] + [(t, 0, -1) for t in openings])
    queue: list[int] = []
    shown: dict[int, tuple[float, float, float]] = {}
    seen: list[float] = []
    results = []
    for t, kind, index in events:
        queue = [i for i in queue if leaves.get(i, math.inf) > t]
        if kind == 1:
            queue.append(index)
            # The phone sees only the last two hours; keeping the list short keeps the run quick.
            seen = [s for s in seen if s >= t - 2 * HOUR]
            wait = estimate(openings=seen, now=t, position=len(queue))
            if wait is not None:
                shown[index] = (wait.middle_seconds, wait.low_seconds, wait.high_seconds)
        else:
            seen.append(t)
            if queue:
                seated = queue.pop(0)
                if seated in shown:
                    results.append((*shown[seated], t - joins[seated]))
    return results


def month(rng: random.Random, days: int) -> list:
    def rate(column: int) -> Callable[[float], float]:
        def at(t: float) -> float:
            hour = (t % (24 * HOUR)) / HOUR
            return next((row[column] for row in DAY if row[0] <= hour < row[1]), 0.0)

        return at

    results = []
    for day in range(days):
        start = day * 24 * HOUR
        end = start + 18 * HOUR
        results += replay(rng, stream(rng, rate(2), start, end), stream(rng, rate(3), start, end))
    return results


def steady(rng: random.Random, days: int) -> list:
    end = days * 18 * HOUR
    return replay(rng, stream(rng, lambda t: 10.0, 0, end), stream(rng, lambda t: 9.5, 0, end))


def bunches(rng: random.Random, days: int) -> list:
    end = days * 18 * HOUR
    singles = stream(rng, lambda t: 6.0, 0, end)
    # A new table every hour and a half on average: its nine seats open at once.
    tables = [t for opened in stream(rng, lambda t: 0.6, 0, end) for t in [opened] * 9]
    return replay(rng, singles + tables, stream(rng, lambda t: 11.0, 0, end))


def changing(rng: random.Random, days: int) -> list:
    end = days * 18 * HOUR

    def rate(t: float) -> float:  # 4 to 16 seats an hour and back, every six hours
        return 10.0 + 6.0 * math.sin(2 * math.pi * t / (6 * HOUR))

    return replay(rng, stream(rng, rate, 0, end), stream(rng, lambda t: 0.95 * rate(t - HOUR), 0, end))


def shares(results: list) -> tuple[float, float, float, float, float]:
    """(inside, above, below, median abs error / median wait, median width / median wait)."""
    inside = sum(1 for _m, low, high, real in results if low <= real <= high) / len(results)
    above = sum(1 for _m, _low, high, real in results if real > high) / len(results)
    median_wait = statistics.median(row[3] for row in results)
    mae = statistics.median(abs(middle - real) for middle, _low, _high, real in results)
    width = statistics.median(high - low for _m, low, high, _real in results)
    return inside, above, 1.0 - inside - above, mae / median_wait, width / median_wait


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    print(f"days per scenario = {args.days} (seed {args.seed})")
    print(
        f"{'scenario':10} {'players':>8} {'median wait':>12} {'inside':>7} {'above':>6} {'below':>6}"
        f" {'mae/wait':>9} {'width/wait':>11}"
    )
    failed, inside_shares, above_shares, month_ratio = [], [], [], 0.0
    for name, scenario in [
        ("month", month),
        ("steady", steady),
        ("bunches", bunches),
        ("changing", changing),
    ]:
        results = scenario(random.Random(f"{args.seed}-{name}"), args.days)
        inside, above, below, ratio, width = shares(results)
        wait = statistics.median(row[3] for row in results) / 60
        print(
            f"{name:10} {len(results):8} {wait:8.1f} min {inside:7.0%} {above:6.0%} {below:6.0%}"
            f" {ratio:9.2f} {width:11.2f}"
        )
        inside_shares.append(inside)
        above_shares.append(above)
        month_ratio = ratio if name == "month" else month_ratio
        # Issue 15's target for the middle is the month's; bunches make any middle a guess.
        if inside < TARGET_INSIDE or above > TARGET_ABOVE or (name == "month" and ratio >= TARGET_RATIO):
            failed.append(name)
    print(f"RATIO worst inside share = {min(inside_shares):.3f} (target >= {TARGET_INSIDE})")
    print(f"RATIO worst above share = {max(above_shares):.3f} (target <= {TARGET_ABOVE})")
    print(f"RATIO wait_mae/median_wait = {month_ratio:.2f} (the month's; target < {TARGET_RATIO})")
    print("all scenarios meet the targets" if not failed else f"BELOW TARGET: {', '.join(failed)}")


if __name__ == "__main__":
    main()
