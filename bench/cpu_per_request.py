"""Issue 24: CPU per request, by kind, as a ratio to a calibration request measured in the same
run, and the statements of each kind beside their ceilings.

Run from the project root:  .venv/bin/python bench/cpu_per_request.py [--runs 3] [--rounds 40]
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set), in one
process through Django's test client with the production settings (DEBUG off), served with
bench.bench_settings (the project's URLs plus the calibration view).

The calibration request is GET /select-one/ (bench/baseline_urls.py): one `SELECT 1` through the
same middleware. The ratio cancels most of the machine's speed. Targets: a cage buy-in at most
4 times the calibration request, a dealer tap (deal, flop, end: their mean) at most 2 times, a
shared poll (a TV clock's poll answered from the reading the TVs share) at most 0.5 times.

CPU is this process's (`time.process_time()`: what serving the request costs Django, the
project and the database driver; PostgreSQL's own work is in another process and not counted).
Each of `--rounds` rounds sends every kind once; a kind's figure is its median over the rounds.
The room is bench/room_setup.py's small room (2 dealer tables, 1 cage window, a tournament of 20
entries). The run is repeated `--runs` times and the median of the runs reported, with the load
average. The statements of each kind are counted once, after a warm-up round, with
django.test.utils.CaptureQueriesContext (the process caches warm, as in a running room); the TV
poll that reads is counted apart from one answered from the shared reading.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import collect_static, load_average, prepare_database, setup_django
from bench.queries_vs_history import Room, production_settings

TARGETS = {"cage buy-in": 4.0, "dealer tap": 2.0, "shared poll": 0.5}
# Issue 24's ceilings of statements per request.
CEILINGS = {
    "cage buy-in": 16,
    "cash-out": 18,
    "deal": 6,
    "flop": 5,
    "hand end": 10,
    "TV poll that reads": 9,
    "shared poll": 0,
}


class Measured(Room):
    """The small room's requests, and the calibration request."""

    def calibrate(self) -> None:
        self._ok(self.screen.get("/select-one/"), 200)

    def kinds(self):
        """Each kind once, in an order that leaves the room as it found it."""
        return [
            ("calibration", self.calibrate),
            ("deal", self.deal),
            ("flop", self.flop),
            ("hand end", self.end),
            ("cage buy-in", self.buy_in),
            ("cash-out", self.cash_out),
            # The TVs poll every second, 40 of them: most polls come within the half second of
            # another and are answered from its reading. The second of two at once is that poll.
            ("first poll", self.tv_poll),
            ("shared poll", self.tv_poll),
        ]


def cpu_ms(send) -> float:
    started = time.process_time()
    send()
    return (time.process_time() - started) * 1000


def one_run(room: Measured, rounds: int) -> dict[str, float]:
    """The median CPU ms of each kind over `rounds` rounds."""
    samples: dict[str, list[float]] = {}
    for _ in range(rounds):
        for kind, send in room.kinds():
            samples.setdefault(kind, []).append(cpu_ms(send))
    figures = {kind: statistics.median(values) for kind, values in samples.items()}
    figures["dealer tap"] = statistics.mean(figures[kind] for kind in ("deal", "flop", "hand end"))
    return figures


def statements(room: Measured, show: bool = False) -> dict[str, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cardroom.selectors import venue_get
    from screens.views.tv import TvStateView

    counts = {}
    for kind, send in room.kinds():
        if kind == "calibration":
            continue
        if kind == "first poll":  # makes the reading (or finds one) the shared poll then uses
            send()
            continue
        venue_get()  # the venue is read again every few seconds: not by a counted request
        with CaptureQueriesContext(connection) as queries:
            send()
        counts[kind] = len(queries.captured_queries)
        if show:
            print(f"{kind}:\n" + "\n".join(f"  {query['sql'][:150]}" for query in queries.captured_queries))
    # The next period's first poll makes the reading the TVs then share.
    time.sleep(TvStateView.READING_SECONDS)
    venue_get()
    with CaptureQueriesContext(connection) as queries:
        room.tv_poll()
    counts["TV poll that reads"] = len(queries.captured_queries)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--show-statements", action="store_true", help="print each kind's SQL")
    args = parser.parse_args()
    production_settings()
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    cleanup = prepare_database()
    try:
        setup_django()
        collect_static()
        from bench.room_setup import setup_room

        room = Measured(setup_room(tables=2, windows=1, entries=20))
        room.floor.force_login(room.manager)
        for _kind, send in room.kinds():  # the process caches: roles, accounts, the venue
            send()
        counts = statements(room, show=args.show_statements)
        runs = []
        for run in range(args.runs):
            average = load_average()
            runs.append(one_run(room, args.rounds))
            print(
                f"run {run + 1}: load average {average}; "
                + ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in runs[-1].items() if kind != "first poll"),
                flush=True,
            )
        report(runs, counts)
    finally:
        from bench.room_load import purge_redis

        purge_redis()
        cleanup()


def report(runs: list[dict[str, float]], counts: dict[str, int]) -> None:
    median = {kind: statistics.median(run[kind] for run in runs) for kind in runs[0]}
    calibration = median["calibration"]
    print(f"\nCPU per request, median of {len(runs)} runs (calibration {calibration:.2f} ms):")
    for kind, target in TARGETS.items():
        ratio = median[kind] / calibration
        print(
            f"  {kind:<12} {median[kind]:>7.2f} ms  ratio {ratio:.2f}  target <= {target}  "
            f"{'met' if ratio <= target else 'missed'}"
        )
        print(f"RATIO {kind.replace(' ', '_')}/calibration = {ratio:.2f}")
    print("statements per request (ceiling):")
    for kind, ceiling in CEILINGS.items():
        print(f"  {kind:<20} {counts[kind]:>3} ({ceiling}) {'met' if counts[kind] <= ceiling else 'missed'}")
    print(f"load average {load_average()} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
