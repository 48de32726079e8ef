"""Issue 14: the room at ten times a 100-table room's peak, every device at once. Target: for
each kind of request, p99 under 100 ms (p99 / 100 ms < 1), no errors, and the books agree.

Run from the project root:  .venv/bin/python bench/room_load.py
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set); REDIS_URL
defaults to redis://127.0.0.1:6379/6 (cache and Celery broker, as in production; no worker runs,
and the database's queue is emptied at the end). Served by gunicorn (one single-threaded worker
per CPU, DEBUG off) on this machine.

The devices, each one wrk thread on its own keep-alive connection (bench/room_*.lua):
- 40 dealer tablets, one per table, tap deal / flop / end (POST .../tables/<id>/hands/,
  .../hands/<id>/flop/, .../hands/<id>/end/ with a 40.00 EUR pot) after a pause of 1 to 3 s
  (uniform) before each tap: about 20 taps, 6.7 hands a second in all, twice the 3.3 hands/s
  of ten times a room's peak.
- 10 cage windows post through the cage's door (POST /api/cashier/transactions/) a cash-game
  buy-in of 200.00 EUR that seats a player at the window's own table, then his cash-out, after a
  pause of 1 to 3 s before each request: about 2.5 buy-ins and 2.5 cash-outs a second.
- 60 screens: 40 TV clocks and 10 floor dashboards poll the tournament's clock state
  (GET /tv/<id>/state.json, what static/js/clock.js polls on both pages) one second after each
  answer; 10 waiting-list boards poll GET /board/rows/ every 5 s (templates/cashgame/board.html).

The load is paced, not flat out: each device waits for its answer, pauses, and sends the next
request (a closed loop with think time, as the devices behave), so the client needs a few
percent of one core. Every answer is logged with its kind and times (bench/room_log.lua); the
figures come from the requests sent in the MEASURE_S seconds after WARMUP_S of warm-up.

--legacy-cashier-api is for measuring older commits (cff579a and before), whose cashier API took
an amount in euros and a table reference and moved the money only, without seating anyone; they
have no books check either, so the ledger's total and unbalanced postings are checked instead.
"""

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    ROOT,
    load_average,
    percentile,
    prepare_database,
    setup_django,
    start_server,
    stop_server,
)

TABLES = 40
PLAYERS_PER_TABLE = 4
POT_CENTS = 4_000
TAP_PAUSE_MS = (1_000, 3_000)
CAGE_WINDOWS = 10
CAGE_PLAYERS_PER_WINDOW = 30
BUY_IN_CENTS = 20_000
DESK_PAUSE_MS = (1_000, 3_000)
TV_SCREENS = 40
FLOOR_SCREENS = 10
BOARD_SCREENS = 10
CLOCK_POLL_MS = 1_000  # static/js/clock.js POLL_MS
BOARD_POLL_MS = 5_000  # templates/cashgame/board.html hx-trigger
TOURNAMENT_ENTRIES = 90
WAITING_PLAYERS = 12
WARMUP_S = 5.0
MEASURE_S = 20.0
TARGET_MS = 100.0

# Kinds as the logs write them -> the kind reported.
GROUPS = {
    "deal": "dealer tap",
    "flop": "dealer tap",
    "end": "dealer tap",
    "recover": "dealer tap",
    "void": "dealer tap",
    "buy_in": "buy-in",
    "cash_out": "cash-out",
    "tv": "TV poll",
    "board": "board poll",
}
REPORTED = ["dealer tap", "buy-in", "cash-out", "TV poll", "board poll"]
TARGETED = ["dealer tap", "buy-in", "TV poll"]


def _player(label: str, number: int, now):
    from players.models import Player, normalize

    return Player(
        first_name="Bench",
        last_name=f"{label}{number}",
        date_of_birth="1980-01-01",
        card_number=f"{label}{number:06d}",
        id_document_type="id_card",
        id_document_number=f"{label}{number:06d}",
        id_verified_at=now,
        first_name_key="bench",
        last_name_key=normalize(f"{label}{number}"),
    )


def setup_room(
    *, tables: int = TABLES, windows: int = CAGE_WINDOWS, entries: int = TOURNAMENT_ENTRIES
) -> dict:
    """The room before the doors open: 40 open 1/2 EUR tables with 4 players bought in and in
    play and a floor user (a tablet's token) each; 10 cage windows, each a cashier with a token,
    an open shift, a table of 10 seats and ID-verified players of its own; a running tournament
    with 90 entries seated; players on the waiting list. Everything through the services."""
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from cashgame.services.games import game_create
    from cashgame.services.sessions import session_buy_in, session_state_change
    from cashgame.services.tables import table_create, table_open
    from cashgame.services.waiting import waiting_add
    from cashier.services import shift_open
    from players.models import Player
    from tournaments.models import BlindStructure, LevelKind, StructureLevel
    from tournaments.services.registration import entry_register, tournament_start
    from tournaments.services.tournaments import tournament_create, tournament_open_registration

    if connection.vendor != "postgresql":
        raise SystemExit("room_load needs PostgreSQL (DATABASE_URL=postgres://...)")
    now = timezone.now()
    manager = User.objects.create_user(username="bench-manager", password=None)
    manager.groups.add(Group.objects.get(name="Manager"))
    cashier = User.objects.create_user(username="bench-cashier", password=None)
    cashier.groups.add(Group.objects.get(name="Cashier"))
    shift = shift_open(actor=cashier, opening_float_cents=1_000_000)
    game = game_create(
        actor=manager,
        name="Bench NLHE 1/2",
        game_type="nlhe",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=30_000,
    )
    floor_group = Group.objects.get(name="Floor")
    cashier_group = Group.objects.get(name="Cashier")
    seated = Player.objects.bulk_create(_player("T", i, now) for i in range(tables * PLAYERS_PER_TABLE))
    dealers = []
    for number in range(1, tables + 1):
        table = table_open(actor=manager, table=table_create(actor=manager, number=number, game=game))
        for seat in range(1, PLAYERS_PER_TABLE + 1):
            session = session_buy_in(
                actor=cashier,
                shift=shift,
                table=table,
                player=seated[(number - 1) * PLAYERS_PER_TABLE + seat - 1],
                seat=seat,
                amount_cents=30_000,
                idempotency_key=f"bench-seat-{number}-{seat}",
            )
            session_state_change(actor=manager, session=session, action="posted")
        dealer = User.objects.create_user(username=f"bench-dealer-{number}", password=None)
        dealer.groups.add(floor_group)
        dealers.append((Token.objects.create(user=dealer).key, table.pk))

    desks = []
    for window in range(windows):
        user = User.objects.create_user(username=f"bench-window-{window}", password=None)
        user.groups.add(cashier_group)
        table = table_open(
            actor=manager, table=table_create(actor=manager, number=101 + window, game=game, seats=10)
        )
        players = Player.objects.bulk_create(
            _player(f"W{window}-", i, now) for i in range(CAGE_PLAYERS_PER_WINDOW)
        )
        desks.append(
            {
                "token": Token.objects.create(user=user).key,
                "shift": shift_open(actor=user, opening_float_cents=1_000_000).pk,
                "table": table.pk,
                "players": [p.pk for p in players],
            }
        )

    structure = BlindStructure.objects.create(name="Bench 20 minutes")
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            order=order,
            kind=LevelKind.LEVEL,
            small_blind_chips=25 * order,
            big_blind_chips=50 * order,
            minutes=20,
        )
        for order in range(1, 21)
    )
    tournament = tournament_create(
        actor=manager,
        name="Bench Deepstack",
        structure=structure,
        start_at=now,
        prize_cents=9_000,
        fee_cents=1_000,
        starting_stack_chips=20_000,
        late_registration_level=6,
        guarantee_cents=1_000_000,
        guarantee_mode="unconditional",
    )
    tournament_open_registration(actor=manager, tournament=tournament)
    for i, player in enumerate(Player.objects.bulk_create(_player("E", i, now) for i in range(entries))):
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"bench-entry-{i}",
        )
    tournament_start(actor=manager, tournament=tournament)

    for player in Player.objects.bulk_create(_player("Q", i, now) for i in range(WAITING_PLAYERS)):
        waiting_add(actor=manager, game=game, player=player)
    connection.close()
    return {
        "dealers": dealers,
        "windows": desks,
        "tournament": tournament.pk,
        "manager": manager.pk,
        "cashier": cashier.pk,
        "shift": shift.pk,
        "game": game.pk,
    }


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def run_load(port: int, room: dict, logs: Path) -> dict:
    """Start every device's wrk at once for WARMUP_S + MEASURE_S; return the window measured,
    wrk's own counts per script, the client's CPU seconds and the machine's CPU use meanwhile."""
    seconds = WARMUP_S + MEASURE_S
    url = f"http://127.0.0.1:{port}"
    common_env = {**os.environ, "ROOM_LOG_DIR": str(logs), "ROOM_LUA_DIR": str(ROOT / "bench")}
    state = f"/tv/{room['tournament']}/state.json"
    devices = [
        (
            "dealer",
            "room_dealer.lua",
            TABLES,
            {
                "DEALERS": ",".join(f"{token}:{table}" for token, table in room["dealers"]),
                "POT_CENTS": str(POT_CENTS),
                "TAP_PAUSE_MS": "{},{}".format(*TAP_PAUSE_MS),
            },
        ),
        (
            "cage",
            "room_cage.lua",
            CAGE_WINDOWS,
            {
                "WINDOWS": ";".join(
                    "{token}:{shift}:{table}:".format(**w) + ",".join(map(str, w["players"]))
                    for w in room["windows"]
                ),
                "BUY_IN_CENTS": str(BUY_IN_CENTS),
                "DESK_PAUSE_MS": "{},{}".format(*DESK_PAUSE_MS),
                "ROOM_TAG": str(os.getpid()),
                "CAGE_API": "legacy" if "--legacy-cashier-api" in sys.argv[1:] else "cage",
            },
        ),
        (
            "tv",
            "room_poll.lua",
            TV_SCREENS + FLOOR_SCREENS,
            {"POLL_KIND": "tv", "POLL_PATH": state, "POLL_MS": str(CLOCK_POLL_MS)},
        ),
        (
            "board",
            "room_poll.lua",
            BOARD_SCREENS,
            {"POLL_KIND": "board", "POLL_PATH": "/board/rows/", "POLL_MS": str(BOARD_POLL_MS)},
        ),
    ]
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    processes = []
    for name, script, count, env in devices:
        command = ["wrk", f"-t{count}", f"-c{count}", f"-d{seconds:.0f}s", "--timeout", "30s"]
        command += ["-s", str(ROOT / "bench" / script), url]
        processes.append(
            (name, subprocess.Popen(command, env={**common_env, **env}, stdout=subprocess.PIPE, text=True))
        )
    time.sleep(WARMUP_S)
    cpu_begin = _cpu_ticks()
    time.sleep(MEASURE_S)
    cpu_end = _cpu_ticks()
    outputs = {}
    for name, process in processes:
        out, _err = process.communicate(timeout=60)
        if process.returncode:
            raise RuntimeError(f"wrk ({name}) exited with {process.returncode}")
        line = next(x for x in out.splitlines() if x.startswith("WRK "))
        outputs[name] = {k: int(v) for k, v in (item.split("=") for item in line.split()[1:])}
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = (children_after.ru_utime + children_after.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    busy = (cpu_end[0] - cpu_begin[0]) / max(1, cpu_end[1] - cpu_begin[1])
    return {
        "window": (start + WARMUP_S, start + WARMUP_S + MEASURE_S),
        "wrk": outputs,
        "client_cpu_s": client_cpu,
        "machine_busy": busy,
    }


def read_logs(logs: Path, window: tuple[float, float]) -> dict:
    """Per kind reported: latencies (ms) of the requests sent in the window, errors, examples."""
    begin, end = window[0] * 1000, window[1] * 1000
    kinds: dict[str, dict] = defaultdict(lambda: {"ms": [], "errors": 0, "failures": []})
    hands = 0
    for path in sorted(logs.glob("*.log")):
        for line in path.read_text().splitlines():
            kind, sent, answered, ok, status, *detail = line.split(" ", 5)
            if not begin <= float(sent) < end:
                continue
            group = kinds[GROUPS[kind]]
            group["ms"].append(float(answered) - float(sent))
            if ok != "1":
                group["errors"] += 1
                if len(group["failures"]) < 3:
                    group["failures"].append(f"{kind} {status} {' '.join(detail)}"[:200])
            elif kind == "end":
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
    if not shutil.which("wrk"):
        raise SystemExit("room_load needs wrk (apt-get install wrk)")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    cleanup = prepare_database()
    logs = Path(tempfile.mkdtemp(prefix="room_load_"))
    try:
        setup_django()
        started = time.monotonic()
        room = setup_room()
        print(f"setup {time.monotonic() - started:.1f} s; load average {load_average()} (1, 5, 15 min)")
        server, port = start_server("cardroom.settings")
        try:
            result = run_load(port, room, logs)
        finally:
            stop_server(server)
        measured = read_logs(logs, result["window"])
        problems = books()
        report(result, measured, problems)
    finally:
        purge_redis()
        shutil.rmtree(logs, ignore_errors=True)
        cleanup()


def report(result: dict, measured: dict, problems: list) -> None:
    kinds = measured["kinds"]
    print(
        f"devices: {TABLES} dealer tablets (pause {TAP_PAUSE_MS[0]}-{TAP_PAUSE_MS[1]} ms), "
        f"{CAGE_WINDOWS} cage windows (pause {DESK_PAUSE_MS[0]}-{DESK_PAUSE_MS[1]} ms), "
        f"{TV_SCREENS + FLOOR_SCREENS} clock screens ({CLOCK_POLL_MS} ms), {BOARD_SCREENS} boards "
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
    wrk = result["wrk"]
    unanswered = sum(v["sent"] - v["answered"] for v in wrk.values())
    socket_errors = sum(v["socket_errors"] + v["timeouts"] for v in wrk.values())
    print(f"hands ended per second: {measured['hands'] / MEASURE_S:.2f}")
    print(f"unanswered when wrk stopped: {unanswered}; socket errors and timeouts: {socket_errors}")
    print(
        f"client (wrk) CPU: {result['client_cpu_s']:.2f} s over {WARMUP_S + MEASURE_S:.0f} s; "
        f"machine CPU busy while measured: {result['machine_busy'] * 100:.0f} %; "
        f"load average after: {load_average()}"
    )
    for name in TARGETED:
        ms = kinds.get(name, {"ms": []})["ms"]
        ratio = percentile(ms, 0.99) / TARGET_MS if ms else float("nan")
        print(f"RATIO {name.replace(' ', '_')}_p99/100ms = {ratio:.3f}  (target < 1)")
    print(f"errors = {errors + socket_errors}  (target 0)")
    print(f"books_problems = {problems!r}  (target [])")


if __name__ == "__main__":
    main()
