"""The load of bench/room_load.py: every device of the room as a coroutine of one asyncio client
in this process (dealer tablets, cage windows, screens), paced like people, each request on a
new connection; run_load runs them against the server and measures the CPU it and its
PostgreSQL backends use while measured."""

import asyncio
import json
import os
import random
import resource
import time
from dataclasses import dataclass
from pathlib import Path

POT_CENTS = 4_000
TAP_PAUSE_MS = (1_000, 3_000)
BUY_IN_CENTS = 20_000
DESK_PAUSE_MS = (1_000, 3_000)
TV_SCREENS = 40
FLOOR_SCREENS = 10
BOARD_SCREENS = 10
CLOCK_POLL_MS = 1_000  # static/js/clock.js POLL_MS
BOARD_POLL_MS = 5_000  # templates/screens/board.html hx-trigger
# Told apart when one process runs the load more than once (bench/headroom.py's steps): each
# run's request keys are its own.
KEY_RUN = ""
WARMUP_S = 5.0
MEASURE_S = 20.0


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
            key=f"room-{os.getpid()}{KEY_RUN}-{index}-{n}",
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
