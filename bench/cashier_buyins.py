"""Issue 3: API buy-ins per second with 16 concurrent cashiers, against a bare Django view doing
the same inserts in one transaction. Target: >= 200/s and api/bare >= 0.5.

Run from the project root:  .venv/bin/python bench/cashier_buyins.py
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set). Each side is
served by its own gunicorn (one single-threaded worker per CPU), one after the other, here.
"""

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, prepare_database, setup_django

CLIENTS = 16
PLAYERS = 200
WARMUP_S = 2.0
MEASURE_S = 15.0
TARGET_PER_S = 200.0
TARGET_RATIO = 0.5


def setup_fixtures() -> tuple[list[tuple[str, int]], list[int]]:
    """16 cashiers with tokens and open shifts, and ID-verified players (PLY-2 never refuses)."""
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from cardroom.selectors import venue_get
    from cashier.models import ReceiptCounter
    from cashier.services import shift_open
    from players.models import Player, normalize

    if connection.vendor != "postgresql":
        raise SystemExit("cashier_buyins needs PostgreSQL (DATABASE_URL=postgres://...)")
    group, _created = Group.objects.get_or_create(name="Cashier")
    desks = []
    for i in range(CLIENTS):
        user = User.objects.create_user(username=f"bench-cashier-{i}", password=None)
        user.groups.add(group)
        token = Token.objects.create(user=user)
        shift = shift_open(actor=user, opening_float_cents=1_000_000)
        desks.append((token.key, shift.pk))
    now = timezone.now()
    players = Player.objects.bulk_create(
        Player(
            first_name="Bench",
            last_name=f"Player{i}",
            date_of_birth="1980-01-01",
            card_number=f"{900_000 + i}",
            id_document_type="id_card",
            id_document_number=f"BENCH{i:06d}",
            id_verified_at=now,
            first_name_key="bench",
            last_name_key=normalize(f"Player{i}"),
        )
        for i in range(PLAYERS)
    )
    ReceiptCounter.objects.get_or_create(venue=venue_get())
    connection.close()
    return desks, [p.pk for p in players]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(settings_module: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        # Production settings (debug off) over plain HTTP on loopback.
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "AXES_ENABLED": "0",
        "DATABASE_CONN_MAX_AGE": "60",
    }
    command = [
        str(ROOT / ".venv/bin/gunicorn"),
        "cardroom.wsgi",
        "--workers",
        os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 2)),
        "--threads",
        os.environ.get("BENCH_THREADS", "1"),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not start")


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def load(port: int, path: str, desks: list[tuple[str, int]], players: list[int], tag: str) -> float:
    """16 keep-alive clients for WARMUP_S + MEASURE_S; returns 201 responses per second measured."""
    start = time.monotonic()
    begin, end = start + WARMUP_S, start + WARMUP_S + MEASURE_S
    lock = threading.Lock()
    counts = {"created": 0, "other": 0}
    failures: list[str] = []

    def client(index: int) -> None:
        token, shift = desks[index]
        rng = random.Random(index)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.monotonic() < end:
            n += 1
            body = json.dumps(
                {
                    "kind": "cash_buy_in",
                    "shift": shift,
                    "player": rng.choice(players),
                    "amount": "50.00",
                    "reference": "table:1",
                }
            )
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
    return rate


def load_with_wrk(port: int, path: str, desks: list[tuple[str, int]], players: list[int], tag: str) -> float:
    """The same load from wrk (C, 2 threads, 16 connections), which leaves the server far more
    of the machine's two cores than 16 Python client threads do."""
    env = {
        **os.environ,
        "DESKS": ",".join(f"{token}:{shift}" for token, shift in desks),
        "PLAYERS": ",".join(str(p) for p in players),
        "BENCH_PATH": path,
        "BENCH_TAG": tag,
    }
    url = f"http://127.0.0.1:{port}"
    script = str(ROOT / "bench" / "buyin.lua")
    subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{WARMUP_S:.0f}s", "-s", script, url],
        env=env,
        check=True,
        capture_output=True,
    )
    env["BENCH_TAG"] = tag + "m"
    result = subprocess.run(
        ["wrk", "-t2", f"-c{CLIENTS}", f"-d{MEASURE_S:.0f}s", "-s", script, url],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    line = next(x for x in result.stdout.splitlines() if x.startswith("WRK "))
    fields = dict(item.split("=") for item in line.split()[1:])
    rate = int(fields["created"]) / float(fields["seconds"])
    print(
        f"{tag:<5} {path:<28} 201={fields['created']:<6} other={fields['other']:<4} {rate:7.1f}/s "
        f"(p50 {fields['p50_ms']} ms, p99 {fields['p99_ms']} ms, wrk)"
    )
    return rate


def measure(settings_module: str, path: str, desks, players, tag: str) -> float:
    server, port = start_server(settings_module)
    try:
        if shutil.which("wrk") and "--python-client" not in sys.argv:
            return load_with_wrk(port, path, desks, players, tag)
        return load(port, path, desks, players, tag)
    finally:
        stop_server(server)


def main() -> None:
    cleanup = prepare_database()
    try:
        setup_django()
        desks, players = setup_fixtures()
        print(
            f"{CLIENTS} clients, {WARMUP_S:.0f} s warm-up, {MEASURE_S:.0f} s measured, {os.cpu_count()} CPUs"
        )
        api = measure("cardroom.settings", "/api/cashier/transactions/", desks, players, "api")
        bare = measure("bench.bench_settings", "/bare-buyin/", desks, players, "bare")
        print(f"api_per_second  = {api:.1f}")
        print(f"bare_per_second = {bare:.1f}")
        print(f"ratio api/bare  = {api / bare:.3f}" if bare else "ratio api/bare  = n/a")
        print(f"target: >= {TARGET_PER_S:.0f}/s and ratio >= {TARGET_RATIO}")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
