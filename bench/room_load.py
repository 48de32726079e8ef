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
  counts and the clock, templates/floor/floor.html's "every 1s"); 10 waiting-list boards poll
  GET /board/rows/ every 5 s (templates/cashgame/board.html). Before the floor view existed
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

import asyncio
import json
import os
import random
import resource
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
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
    *,
    tables: int = TABLES,
    windows: int = CAGE_WINDOWS,
    entries: int = TOURNAMENT_ENTRIES,
    levels: int = 20,
    level_minutes: int = 20,
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

    structure = BlindStructure.objects.create(name=f"Bench {level_minutes} minutes")
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            order=order,
            kind=LevelKind.LEVEL,
            small_blind_chips=25 * order,
            big_blind_chips=50 * order,
            minutes=level_minutes,
        )
        for order in range(1, levels + 1)
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
    cookie = _logged_in_cookie(manager)
    connection.close()
    return {
        "cookie": cookie,
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


class ServerCpu:
    """CPU seconds that gunicorn (master and workers) and this database's PostgreSQL backends
    use in a window, sampled from /proc every SAMPLE_S: a backend is found by its process title
    ("postgres: <user> <database> ..."), so one that starts or ends in the window counts too
    (less the last SAMPLE_S of one that ends)."""

    SAMPLE_S = 0.25

    def __init__(self, server_pid: int, database: str):
        self.server_pid, self.title = server_pid, f" {database} "
        self.tick = os.sysconf("SC_CLK_TCK")
        self.used: dict[int, list] = {}  # pid -> [kind, ticks when first seen, ticks last seen]

    def _scan(self) -> dict[int, tuple[str, int, int]]:
        found = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                pid = int(stat.parent.name)
                if pid == self.server_pid or int(fields[1]) == self.server_pid:
                    kind = "gunicorn"
                elif self.title in (stat.parent / "cmdline").read_text():
                    kind = "postgres"
                else:
                    continue
            except (OSError, ValueError):
                continue
            # utime + stime, and the start time (ticks since boot)
            found[pid] = (kind, int(fields[11]) + int(fields[12]), int(fields[19]))
        return found

    def begin(self) -> None:
        self.begun = float(Path("/proc/uptime").read_text().split()[0]) * self.tick
        for pid, (kind, ticks, _start) in self._scan().items():
            self.used[pid] = [kind, ticks, ticks]

    def sample(self) -> None:
        for pid, (kind, ticks, start) in self._scan().items():
            if pid not in self.used:
                self.used[pid] = [kind, 0 if start >= self.begun else ticks, ticks]
            self.used[pid][2] = ticks

    def cores(self, seconds: float) -> tuple[dict[str, float], dict[str, int]]:
        """(cores used by kind, processes seen by kind) over a window of `seconds`."""
        cores = {"gunicorn": 0.0, "postgres": 0.0}
        count = {"gunicorn": 0, "postgres": 0}
        for kind, first, last in self.used.values():
            cores[kind] += (last - first) / self.tick / seconds
            count[kind] += 1
        return cores, count


@dataclass
class Answer:
    kind: str
    sent: float  # time.monotonic() when the connection was opened
    answered: float
    ok: bool
    status: int
    detail: str = ""


class Client:
    """What the HTTPS proxy in front of gunicorn does for each request (README, Production): a
    new connection with the whole request, read to the end. gunicorn's sync worker serves one
    connection at a time and does not keep it alive, so a device holding an idle keep-alive
    connection would hold a worker while it pauses; the proxy never lets that happen."""

    def __init__(self, port: int, answers: list[Answer], deadline: float):
        self.port, self.answers, self.deadline = port, answers, deadline

    async def send(
        self, method: str, path: str, *, token: str = "", body=None, key: str = "", cookie: str = ""
    ):
        headers = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: close"]
        payload = b""
        if token:
            headers.append(f"Authorization: Token {token}")
        if cookie:
            headers.append(f"Cookie: {cookie}")
        if key:
            headers.append(f"Idempotency-Key: {key}")
        if body is not None:
            payload = json.dumps(body).encode()
            headers += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        headers.append("Accept: application/json")
        sent = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), 30)
            writer.write(("\r\n".join(headers) + "\r\n\r\n").encode() + payload)
            raw = await asyncio.wait_for(reader.read(), 30)
            writer.close()
            head, _sep, text = raw.partition(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
        except (OSError, TimeoutError, IndexError, ValueError) as error:
            status, text = 0, repr(error).encode()
        return sent, status, text.decode(errors="replace")

    def record(self, kind: str, sent: float, ok: bool, status: int, text: str) -> None:
        detail = "" if ok else " ".join(text[:160].split())
        self.answers.append(Answer(kind, sent, time.monotonic(), ok, status, detail))

    async def pause(self, low_ms: int, high_ms: int, rng: random.Random) -> bool:
        """Sleep like a person between taps; False once the run is over."""
        await asyncio.sleep(rng.uniform(low_ms, high_ms) / 1000)
        return time.monotonic() < self.deadline


async def dealer(client: Client, token: str, table_id: int, rng: random.Random) -> None:
    """One table's tablet: deal, flop, end; a tablet that loses track of its hand reads the table
    and voids the hand left open (as bench/hands.lua does)."""
    step, hand = "deal", None
    while await client.pause(*TAP_PAUSE_MS, rng):
        tapped = step
        if step == "deal":
            deal = {"seats": [1, 2, 3, 4], "button_seat": 1}
            sent, status, text = await client.send(
                "POST", f"/api/cashgame/tables/{table_id}/hands/", token=token, body=deal
            )
            ok = status == 201
            if ok:
                hand, step = json.loads(text)["id"], "flop"
        elif step == "flop":
            sent, status, text = await client.send(
                "POST", f"/api/cashgame/hands/{hand}/flop/", token=token, body={}
            )
            ok = status == 200
            step = "end"
        elif step == "end":
            sent, status, text = await client.send(
                "POST", f"/api/cashgame/hands/{hand}/end/", token=token, body={"pot_cents": POT_CENTS}
            )
            ok = status == 200 and json.loads(text).get("status") == "ended"
            step = "deal"
        elif step == "recover":
            path = f"/api/cashgame/tables/{table_id}/"
            sent, status, text = await client.send("GET", path, token=token)
            ok = status == 200
            current = json.loads(text).get("current_hand") if ok else None
            hand, step = (current["id"], "void") if current else (None, "deal")
        else:
            sent, status, text = await client.send(
                "POST", f"/api/cashgame/hands/{hand}/void/", token=token, body={"reason": "misdeal"}
            )
            ok = status == 200
            step = "deal"
        client.record(tapped, sent, ok, status, text)
        if not ok:
            step = "recover"


async def window(client: Client, desk: dict, index: int, legacy: bool, rng: random.Random) -> None:
    """One cage window: a cash-game buy-in that seats a player at the window's table, then his
    cash-out, round its players and seats."""
    turn, n, step = 0, 0, "buy_in"
    players = desk["players"]
    while await client.pause(*DESK_PAUSE_MS, rng):
        n += 1
        player = players[turn % len(players)]
        if legacy:
            body = {
                "kind": "cash_buy_in" if step == "buy_in" else "cash_out",
                "shift": desk["shift"],
                "player": player,
                "amount": f"{BUY_IN_CENTS // 100}.{BUY_IN_CENTS % 100:02d}",
                "reference": f"table:{desk['table']}",
            }
        else:
            body = {"shift": desk["shift"], "player": player, "table": desk["table"]}
            body["amount_cents"] = BUY_IN_CENTS
            if step == "buy_in":
                body.update({"kind": "cash_buy_in", "seat": 1 + turn % 10})
            else:
                body["kind"] = "cash_out"
        sent, status, text = await client.send(
            "POST",
            "/api/cashier/transactions/",
            token=desk["token"],
            body=body,
            key=f"room-{os.getpid()}-{index}-{n}",
        )
        ok = status == 201
        client.record(step, sent, ok, status, text)
        if step == "buy_in" and ok:
            step = "cash_out"
        else:
            # After a cash-out, or a refused buy-in: the next player, at the next seat.
            step, turn = "buy_in", turn + 1


async def screen(
    client: Client, kind: str, path: str, period_ms: int, rng: random.Random, cookie: str = ""
) -> None:
    """A screen polling `path` one period after each answer (static/js/clock.js, htmx's
    "every 5s"); the first poll after a random part of the period, so screens are not in step."""
    if not await client.pause(0, period_ms, rng):
        return
    while True:
        sent, status, text = await client.send("GET", path, cookie=cookie)
        client.record(kind, sent, status == 200, status, text)
        if not await client.pause(period_ms, period_ms, rng):
            return


async def devices(port: int, room: dict, answers: list[Answer], deadline: float, legacy: bool) -> None:
    client = Client(port, answers, deadline)
    rng = random.Random(14)
    state = f"/tv/{room['tournament']}/state.json"
    tasks = [dealer(client, token, table, random.Random(rng.random())) for token, table in room["dealers"]]
    tasks += [
        window(client, desk, i, legacy, random.Random(rng.random())) for i, desk in enumerate(room["windows"])
    ]
    tasks += [
        screen(client, "tv", state, CLOCK_POLL_MS, random.Random(rng.random()))
        for _ in range(TV_SCREENS + (FLOOR_SCREENS if legacy else 0))
    ]
    if not legacy:
        tasks += [
            screen(
                client, "floor", "/floor/live/", CLOCK_POLL_MS, random.Random(rng.random()), room["cookie"]
            )
            for _ in range(FLOOR_SCREENS)
        ]
    tasks += [
        screen(client, "board", "/board/rows/", BOARD_POLL_MS, random.Random(rng.random()))
        for _ in range(BOARD_SCREENS)
    ]
    await asyncio.gather(*tasks)


def run_load(port: int, room: dict, server_pid: int, *, legacy: bool) -> dict:
    """Every device at once for WARMUP_S + MEASURE_S (a device stops after its last answer);
    the answers, the measured window, the client's CPU seconds and the CPU used meanwhile."""
    answers: list[Answer] = []
    start = time.monotonic()
    window_ = (start + WARMUP_S, start + WARMUP_S + MEASURE_S)
    client_before = resource.getrusage(resource.RUSAGE_SELF)
    measured: dict = {}

    server_cpu = ServerCpu(server_pid, os.environ["DATABASE_URL"].rsplit("/", 1)[1])

    async def run() -> None:
        load = asyncio.create_task(devices(port, room, answers, window_[1], legacy))
        await asyncio.sleep(WARMUP_S)
        measured["cpu_begin"] = _cpu_ticks()
        server_cpu.begin()
        while time.monotonic() < window_[1]:
            await asyncio.sleep(ServerCpu.SAMPLE_S)
            server_cpu.sample()
        measured["cpu_end"] = _cpu_ticks()
        measured["server_cores"], measured["server_processes"] = server_cpu.cores(MEASURE_S)
        await load

    asyncio.run(run())
    client_after = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (client_after.ru_utime + client_after.ru_stime) - (
        client_before.ru_utime + client_before.ru_stime
    )
    begin, end = measured["cpu_begin"], measured["cpu_end"]
    return {
        "window": window_,
        "answers": answers,
        "client_cpu_s": client_cpu,
        "machine_busy": (end[0] - begin[0]) / max(1, end[1] - begin[1]),
        "server_cores": measured["server_cores"],
        "server_processes": measured["server_processes"],
        "elapsed_s": time.monotonic() - start,
    }


def _logged_in_cookie(user) -> str:
    """A session cookie for `user`, as the log-in page would set it (the server shares this
    process's secret key and session store)."""
    from django.conf import settings
    from django.test import Client as TestClient

    client = TestClient()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


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
