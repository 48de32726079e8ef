"""Issue 3: API buy-ins per second with 16 concurrent cashiers, against a bare Django view doing
the same inserts in one transaction. Target: api/bare >= 0.5.

Run from the project root:  .venv/bin/python bench/cashier_buyins.py
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set). Each side is
served by its own gunicorn (one single-threaded worker per CPU), one after the other, here.

A buy-in is a cash-game buy-in through the cage's door (`POST /api/cashier/transactions/`,
kind cash_buy_in, amount in cents): it seats the player at a table (CSH-1), so every request
takes a free seat of its own and a player who is not seated yet. Each side gets its own
TABLES_PER_SIDE tables of 10 seats and as many players as seats.
"""

import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    ROOT,
    bench_cage_stock,
    load_average,
    prepare_database,
    setup_django,
    start_server,
    stop_server,
)

CLIENTS = 16
TABLES_PER_SIDE = 1200
SEATS = 10
AMOUNT_CENTS = 20_000
WARMUP_S = 3.0
MEASURE_S = 15.0
TARGET_RATIO = 0.5


def setup_fixtures() -> tuple[list[tuple[str, int]], dict[str, tuple[list[int], list[int]]]]:
    """16 cashiers with tokens and open shifts; per side (api, bare) its open 1/2 EUR tables with
    their chips accounts made, and one ID-verified player per seat (PLY-2 never refuses)."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from cardroom.selectors import venue_get
    from cardroom.services import staff_role_grant
    from cashgame.models import CashTable, Game, TableStatus
    from cashier.models import AccountKind, ReceiptCounter
    from cashier.services import shift_open
    from cashier.services.ledger import account_for
    from players.models import Player, normalize

    if connection.vendor != "postgresql":
        raise SystemExit("cashier_buyins needs PostgreSQL (DATABASE_URL=postgres://...)")
    desks = []
    for i in range(CLIENTS):
        user = User.objects.create_user(username=f"bench-cashier-{i}", password=None)
        staff_role_grant(user=user, role="Cashier")
        token = Token.objects.create(user=user)
        if not desks:
            bench_cage_stock(user)
        shift = shift_open(actor=user, opening_float_cents=1_000_000)
        desks.append((token.key, shift.pk))
    now = timezone.now()
    game = Game.objects.create(
        name="Bench NLHE 1/2",
        game_type="nlhe",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=30_000,
        created_at=now,
        updated_at=now,
    )
    sides = {}
    for side, first in (("api", 1), ("bare", 1 + TABLES_PER_SIDE)):
        tables = CashTable.objects.bulk_create(
            CashTable(number=number, game=game, seats=SEATS, status=TableStatus.OPEN, opened_at=now)
            for number in range(first, first + TABLES_PER_SIDE)
        )
        for table in tables:
            account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference)
        players = Player.objects.bulk_create(
            Player(
                first_name="Bench",
                last_name=f"Player{side}{i}",
                date_of_birth="1980-01-01",
                card_number=f"{side[0]}{900_000 + i}",
                id_document_type="id_card",
                id_document_number=f"BENCH{side}{i:06d}",
                id_verified_at=now,
                first_name_key="bench",
                last_name_key=normalize(f"Player{side}{i}"),
            )
            for i in range(TABLES_PER_SIDE * SEATS)
        )
        sides[side] = ([t.pk for t in tables], [p.pk for p in players])
    ReceiptCounter.objects.get_or_create(venue=venue_get())
    connection.close()
    return desks, sides


def slot_body(slot: int, shift: int, tables: list[int], players: list[int]) -> dict:
    """What bench/buyin.lua sends for a slot: its own player and free seat."""
    return {
        "kind": "cash_buy_in",
        "shift": shift,
        "player": players[slot % len(players)],
        "table": tables[slot % len(tables)],
        "seat": 1 + (slot // len(tables)) % SEATS,
        "amount_cents": AMOUNT_CENTS,
    }


def load(
    port: int, path: str, desks: list[tuple[str, int]], slots: tuple[list[int], list[int]], tag: str
) -> dict:
    """16 keep-alive Python clients for WARMUP_S + MEASURE_S; 201 responses per second measured."""
    tables, players = slots
    start = time.monotonic()
    begin, end = start + WARMUP_S, start + WARMUP_S + MEASURE_S
    lock = threading.Lock()
    counts = {"created": 0, "other": 0}
    failures: list[str] = []

    def client(index: int) -> None:
        token, shift = desks[index]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.monotonic() < end:
            n += 1
            body = json.dumps(slot_body((n - 1) * CLIENTS + index, shift, tables, players))
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Token {token}",
                "Idempotency-Key": f"bench-{tag}-{index}-{n}",
            }
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                status, text = response.status, response.read()
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status, text = 0, repr(error).encode()
            done = time.monotonic()
            if not begin <= done < end:
                continue
            with lock:
                if status == 201:
                    counts["created"] += 1
                else:
                    counts["other"] += 1
                    if len(failures) < 3:
                        failures.append(f"{status}: {text[:300]!r}")
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rate = counts["created"] / MEASURE_S
    print(f"{tag:<5} {path:<28} 201={counts['created']:<6} other={counts['other']:<4} {rate:7.1f}/s")
    for failure in failures:
        print(f"      {failure}")
    return {"rate": rate, "errors": counts["other"]}


def load_with_wrk(
    port: int, path: str, desks: list[tuple[str, int]], slots: tuple[list[int], list[int]], tag: str
) -> dict:
    """The same load from wrk (C, 2 threads, 16 connections), which leaves the server far more
    of the machine's two cores than 16 Python client threads do."""
    tables, players = slots
    env = {
        **os.environ,
        "DESKS": ",".join(f"{token}:{shift}" for token, shift in desks),
        "PLAYERS": ",".join(str(p) for p in players),
        "TABLES": ",".join(str(t) for t in tables),
        "AMOUNT_CENTS": str(AMOUNT_CENTS),
        "BENCH_PATH": path,
        "BENCH_TAG": tag,
        "SLOT_START": "0",
        "WRK_THREADS": "2",
    }
    url = f"http://127.0.0.1:{port}"
    script = str(ROOT / "bench" / "buyin.lua")

    def run(seconds: float) -> dict:
        result = subprocess.run(
            ["wrk", "-t2", f"-c{CLIENTS}", "--timeout", "10s", f"-d{seconds:.0f}s", "-s", script, url],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        lines = result.stdout.splitlines()
        summary = next(x for x in lines if x.startswith("WRK created"))
        fields = dict(item.split("=") for item in summary.split()[1:])
        fields["failures"] = [x[len("WRK last_error ") :] for x in lines if x.startswith("WRK last_error")]
        return fields

    warm = run(WARMUP_S)
    env["BENCH_TAG"], env["SLOT_START"] = tag + "m", warm["next_slot"]
    fields = run(MEASURE_S)
    rate = int(fields["created"]) / float(fields["seconds"])
    errors = int(fields["other"]) + int(fields["socket_errors"])
    print(
        f"{tag:<5} {path:<28} 201={fields['created']:<6} other={errors:<4} {rate:7.1f}/s "
        f"(p50 {fields['p50_ms']} ms, p99 {fields['p99_ms']} ms, wrk; slots used {fields['next_slot']} "
        f"of {len(players)})"
    )
    for failure in fields["failures"]:
        print(f"      {failure}")
    if int(fields["next_slot"]) > len(players):
        print(f"      more requests than free seats: raise TABLES_PER_SIDE (now {TABLES_PER_SIDE})")
    return {"rate": rate, "errors": errors}


def measure(settings_module: str, path: str, desks, slots, tag: str) -> dict:
    server, port = start_server(settings_module)
    try:
        if shutil.which("wrk") and "--python-client" not in sys.argv:
            return load_with_wrk(port, path, desks, slots, tag)
        return load(port, path, desks, slots, tag)
    finally:
        stop_server(server)


def main() -> None:
    cleanup = prepare_database()
    try:
        setup_django()
        desks, sides = setup_fixtures()
        print(
            f"{CLIENTS} clients, {WARMUP_S:.0f} s warm-up, {MEASURE_S:.0f} s measured, "
            f"{os.cpu_count()} CPUs, load average {load_average()}"
        )
        api = measure("cardroom.settings", "/api/cashier/transactions/", desks, sides["api"], "api")
        bare = measure("bench.bench_settings", "/bare-buyin/", desks, sides["bare"], "bare")
        print(f"api_per_second  = {api['rate']:.1f}")
        print(f"bare_per_second = {bare['rate']:.1f}")
        print(f"errors          = {api['errors'] + bare['errors']}")
        ratio = api["rate"] / bare["rate"] if bare["rate"] else 0.0
        print(f"ratio api/bare  = {ratio:.3f}  (target >= {TARGET_RATIO})")
        print(f"load average after: {load_average()}")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
