"""Issue 16: a 12-hour dealer rotation for 40 tables and 55 dealers with 200 table openings and
closings (DLR-2). Target: each recompute under 100 ms.

Run from the project root:  .venv/bin/python bench/dealer_rotation.py [--seed N]
Pure Python (poker.rotation), no database. The night starts at 18:00 with 30 of the room's 40
tables open and 55 dealers clocked in; 200 times during the 12 hours (at random minutes) a table
opens or closes (a closed one opens, an open one closes, alternately where possible). The
rotation is replayed as the dealers' services run it (tests/poker/rotation_replay.py): the
first round of each plan is carried out at its times and the room is replanned after every
round and every change. Every plan is timed; every state is checked (no dealer at two tables,
nobody over 90 minutes without a break, no table waiting while a dealer is free). It prints
the number of plans, their median, p99 and maximum, the table-minutes without a dealer, and
p99 / 100 ms (the ratio must be under 1).
"""

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentile
from poker.rotation import DealerState, next_push
from tests.poker.rotation_replay import Change, Replay, dealt_at, seated

TABLES = 40
OPEN_AT_START = 30
DEALERS = 55
CHANGES = 200
HOURS = 12
TARGET_MS = 100.0
START = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)


def night(seed: int) -> tuple[list[str], list[Change]]:
    rng = random.Random(seed)
    keys = [f"c{n}" for n in range(1, TABLES + 1)]
    open_now = set(rng.sample(keys, OPEN_AT_START))
    start = [k for k in keys if k in open_now]
    changes = []
    for minute in sorted(rng.sample(range(1, HOURS * 60), CHANGES)):
        closing = (len(changes) % 2 == 0 and len(open_now) > 1) or len(open_now) == TABLES
        key = rng.choice(sorted(open_now if closing else set(keys) - open_now))
        (open_now.discard if closing else open_now.add)(key)
        changes.append(Change(START + timedelta(minutes=minute), "close" if closing else "open", key))
    return start, changes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    tables, changes = night(args.seed)
    waiting = [timedelta(0)]
    last = [START, 0]

    def check(replay: Replay, at: datetime, result) -> None:
        covered = seated(replay.dealers)
        for dealer in replay.dealers:
            if dealer.table is not None:
                assert dealt_at(dealer, at, replay.rules) <= replay.rules.max_dealt, (dealer, at)
        # Table-minutes without a dealer, from the last check to this one.
        waiting[0] += (at - last[0]) * last[1]
        uncovered = [t for t in replay.tables if t not in covered]
        if uncovered:
            limit = replay.rules.max_dealt - (next_push(at, replay.rules.push) - at)
            assert not [
                d
                for d in replay.dealers
                if d.table is None
                and (d.available_at is None or d.available_at <= at)
                and dealt_at(d, at, replay.rules) <= limit
            ], ("a table waits while a dealer is free", at)
        last[0], last[1] = at, len(uncovered)

    dealers = [DealerState(100 + i, None, START) for i in range(DEALERS)]
    replay = Replay(tables=list(tables), dealers=dealers, checks=[check])
    replay.run(START, START + timedelta(hours=HOURS), changes)
    times_ms = [s * 1000 for s in replay.plan_seconds]
    p99 = percentile(times_ms, 0.99)
    print(f"tables={TABLES} dealers={DEALERS} changes={len(changes)} hours={HOURS} seed={args.seed}")
    print(f"plans={replay.plans}")
    print(f"plan_ms median={percentile(times_ms, 0.5):.2f} p99={p99:.2f} max={max(times_ms):.2f}")
    print(f"table_minutes_without_dealer={waiting[0].total_seconds() / 60:.0f}")
    print(f"ratio_p99_to_target={p99 / TARGET_MS:.4f}")


if __name__ == "__main__":
    main()
