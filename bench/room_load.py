"""Issue 14: the room at ten times a 100-table room's peak, every device at once. Target: for
each kind of request, p99 under 100 ms (p99 / 100 ms < 1), no errors, and the books agree.

Run from the project root:  .venv/bin/python bench/room_load.py
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set); REDIS_URL
defaults to redis://127.0.0.1:6379/6 (cache and Celery broker, as in production; no worker runs,
and the database's queue is emptied at the end). Served by gunicorn (one single-threaded worker
per CPU, DEBUG off) on this machine.

The devices, each one coroutine of an asyncio client in this process:
- 40 dealer tablets, one per table, tap deal / flop / end (POST .../tables/<id>/hands/,
  .../hands/<id>/flop/, .../hands/<id>/end/ with a 40.00 EUR pot) after a pause of 1 to 3 s
  (uniform) before each tap: about 20 taps, 6.7 hands a second in all, twice the 3.3 hands/s
  of ten times a room's peak.
- 10 cage windows post through the cage's door (POST /api/cashier/transactions/) a cash-game
  buy-in of 200.00 EUR that seats a player at the window's own table, then his cash-out, after a
  pause of 1 to 3 s before each request: about 2.5 buy-ins and 2.5 cash-outs a second.
- 60 screens: 40 TV clocks poll the tournament's clock state (GET /tv/<id>/state.json, what
  static/js/clock.js polls) one second after each answer; 10 floor views, logged in as the
  manager, poll the live room (GET /floor/live/: every table drawn with its seats, the waiting
  counts and the clock, templates/screens/floor/_room.html's "every 1s"); 10 waiting-list boards poll
  GET /board/rows/ every 5 s (templates/screens/board.html). Before the floor view existed
  (--legacy-cashier-api), the floor's dashboards polled the clock state like the TVs.

The load is paced, not flat out: each device waits for its answer, pauses, and sends the next
request (a closed loop with think time, as the devices behave). Each request goes on a new
connection, as the HTTPS proxy in front of gunicorn sends it (README.md, Production): gunicorn's
sync worker does not keep connections alive, and one that waited on an idle keep-alive
connection (wrk's paced connections do that) would sit blocked through the device's pause.
The 77 requests a second offered cost the client a few percent of one core (printed). The time of a
request runs from opening its connection to its last byte; the figures are those of the
requests sent in the MEASURE_S seconds after WARMUP_S of warm-up, each waited for to the end.

--legacy-cashier-api is for measuring older commits (cff579a and before), whose cashier API took
an amount in euros and a table reference and moved the money only, without seating anyone; they
have no books check either, so the ledger's total and unbalanced postings are checked instead.
"""

import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    SERVER_SECRET_KEY,
    collect_static,
    load_average,
    percentile,
    prepare_database,
    setup_django,
    start_server,
    stop_server,
)
from bench.room_devices import (
    BOARD_POLL_MS,
    BOARD_SCREENS,
    CLOCK_POLL_MS,
    DESK_PAUSE_MS,
    FLOOR_SCREENS,
    MEASURE_S,
    TAP_PAUSE_MS,
    TV_SCREENS,
    WARMUP_S,
    run_load,
)
from bench.room_setup import CAGE_WINDOWS, TABLES, setup_room

TARGET_MS = 100.0

# Kinds of request as the devices record them -> the kind reported.
GROUPS = {
    "deal": "dealer tap",
    "flop": "dealer tap",
    "end": "dealer tap",
    "recover": "dealer tap",
    "void": "dealer tap",
    "buy_in": "buy-in",
    "cash_out": "cash-out",
    "tv": "TV poll",
    "floor": "floor view poll",
    "board": "board poll",
}
REPORTED = ["dealer tap", "buy-in", "cash-out", "TV poll", "floor view poll", "board poll"]
TARGETED = ["dealer tap", "buy-in", "TV poll"]


def tally(result: dict) -> dict:
    """Per kind reported: latencies (ms) of the requests sent in the measured window, errors."""
    begin, end = result["window"]
    kinds: dict[str, dict] = defaultdict(lambda: {"ms": [], "errors": 0, "failures": []})
    hands = 0
    for answer in result["answers"]:
        if not begin <= answer.sent < end:
            continue
        group = kinds[GROUPS[answer.kind]]
        group["ms"].append((answer.answered - answer.sent) * 1000)
        if not answer.ok:
            group["errors"] += 1
            if len(group["failures"]) < 3:
                group["failures"].append(f"{answer.kind} {answer.status} {answer.detail}"[:200])
        elif answer.kind == "end":
            hands += 1
    return {"kinds": kinds, "hands": hands}


def books() -> list:
    try:
        from reports.selectors.books import books_problems
    except ImportError:  # an older commit: the ledger's own checks only
        from cashier.selectors import ledger_total, unbalanced_postings

        problems = []
        if ledger_total() != 0:
            problems.append(f"ledger total {ledger_total()}")
        if unbalanced_postings().exists():
            problems.append(f"{unbalanced_postings().count()} unbalanced postings")
        print("books: no books_problems() at this commit; checked the ledger total and balances only")
        return problems
    return books_problems()


def purge_redis() -> None:
    """The tournament's clock messages that no worker took: this benchmark's Redis database only."""
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()


def main() -> None:
    legacy = "--legacy-cashier-api" in sys.argv[1:]
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    # The floor views' session cookie is made here and read by the server: one secret key.
    os.environ["DJANGO_SECRET_KEY"] = SERVER_SECRET_KEY
    cleanup = prepare_database()
    try:
        setup_django()
        collect_static()
        started = time.monotonic()
        room = setup_room()
        print(f"setup {time.monotonic() - started:.1f} s; load average {load_average()} (1, 5, 15 min)")
        server, port = start_server("cardroom.settings")
        try:
            result = run_load(port, room, server.pid, legacy=legacy)
        finally:
            stop_server(server)
        problems = books()
        report(result, tally(result), problems)
    finally:
        purge_redis()
        cleanup()


def report(result: dict, measured: dict, problems: list) -> None:
    kinds = measured["kinds"]
    print(
        f"devices: {TABLES} dealer tablets (pause {TAP_PAUSE_MS[0]}-{TAP_PAUSE_MS[1]} ms), "
        f"{CAGE_WINDOWS} cage windows (pause {DESK_PAUSE_MS[0]}-{DESK_PAUSE_MS[1]} ms), "
        f"{TV_SCREENS} TV clocks and {FLOOR_SCREENS} floor views ({CLOCK_POLL_MS} ms), "
        f"{BOARD_SCREENS} boards "
        f"({BOARD_POLL_MS} ms); {WARMUP_S:.0f} s warm-up, {MEASURE_S:.0f} s measured; "
        f"gunicorn workers {os.environ.get('BENCH_WORKERS', os.cpu_count())}"
    )
    print(
        f"{'kind':<12}{'requests':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'p99/100ms':>11}{'errors':>8}"
    )
    errors = 0
    for name in REPORTED:
        group = kinds.get(name, {"ms": [], "errors": 0, "failures": []})
        ms = group["ms"]
        errors += group["errors"]
        if not ms:
            print(f"{name:<12}{0:>9}")
            continue
        p50, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
        ratio = f"{p99 / TARGET_MS:.3f}" if name in TARGETED else "-"
        print(
            f"{name:<12}{len(ms):>9}{len(ms) / MEASURE_S:>8.1f}{p50:>9.1f}{p99:>9.1f}{max(ms):>9.1f}"
            f"{ratio:>11}{group['errors']:>8}"
        )
        for failure in group["failures"]:
            print(f"    {failure}")
    print(f"hands ended per second: {measured['hands'] / MEASURE_S:.2f}")
    print(
        f"client (asyncio, this process) CPU: {result['client_cpu_s']:.2f} s "
        f"over {result['elapsed_s']:.0f} s; "
        f"machine CPU busy while measured: {result['machine_busy'] * 100:.0f} %; "
        f"load average after: {load_average()}"
    )
    cores = result["server_cores"]
    requests = sum(len(group["ms"]) for group in kinds.values())
    print(
        f"server CPU while measured: gunicorn {cores['gunicorn']:.2f} cores, PostgreSQL "
        f"{result['server_processes']['postgres']} backends {cores['postgres']:.2f} cores "
        f"(of {os.cpu_count()}); per request "
        f"{(cores['gunicorn'] + cores['postgres']) * MEASURE_S / max(1, requests) * 1000:.1f} ms"
    )
    for name in TARGETED:
        ms = kinds.get(name, {"ms": []})["ms"]
        ratio = percentile(ms, 0.99) / TARGET_MS if ms else float("nan")
        print(f"RATIO {name.replace(' ', '_')}_p99/100ms = {ratio:.3f}  (target < 1)")
    print(f"errors = {errors}  (target 0)")
    print(f"books_problems = {problems!r}  (target [])")


if __name__ == "__main__":
    main()
