"""Shared set-up for the benchmarks: a throw-away PostgreSQL database and django.setup()."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
# The key gunicorn runs with. A benchmark that logs a user in (a session cookie for a page)
# sets it in its own process too, so the server accepts the session's hash.
SERVER_SECRET_KEY = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"  # noqa: S105


def _pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(sql)


def prepare_database() -> Callable[[], None]:
    """Use DATABASE_URL if set, else create cardroom_bench_<pid>. Returns the clean-up function."""
    if ROOT not in map(Path, sys.path):
        sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench")
    if os.environ.get("DATABASE_URL"):
        return lambda: None
    name = f"cardroom_bench_{os.getpid()}"
    _pg_admin(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"

    def drop() -> None:
        from django.db import connections

        connections.close_all()
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return drop


def setup_django() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def collect_static() -> None:
    """Production settings serve hashed static files from a manifest (collectstatic, as the
    README's deployment does): a page linking a file the manifest lacks fails. Collected with
    the server's settings (DEBUG off: the manifest storage) every time, so a file added since the
    last run is in the manifest; it copies only what changed."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": SERVER_SECRET_KEY}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(settings_module: str = "cardroom.settings") -> tuple[subprocess.Popen, int]:
    """gunicorn with production settings (DEBUG off) on a free loopback port: one
    single-threaded worker per CPU unless BENCH_WORKERS / BENCH_THREADS say otherwise."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        # Production settings (debug off) over plain HTTP on loopback.
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": SERVER_SECRET_KEY,
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


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, for the record of the conditions of a run."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# The cage's cash-game chips for a benchmark's buy-ins (CHP-2: chips follow the cash, and the cage
# never hands out chips it does not hold): value in cents -> chips, the most one posting moves.
BENCH_CAGE_CHIPS = {
    50: 200_000,
    100: 200_000,
    200: 500_000,
    500: 1_000_000,
    2500: 1_000_000,
    10000: 200_000,
}


def bench_cage_stock(cashier) -> None:
    """Bring the benchmark's chips into service and on to the cage. Needs django.setup()."""
    from django.utils import timezone

    from chips.models import ChipAccountKind, ChipSet
    from chips.services import chips_receive, chips_transfer

    cash = ChipSet.objects.filter(kind="cash").order_by("pk").first()
    now = timezone.now()
    chips_receive(actor=cashier, chip_set=cash, chips=BENCH_CAGE_CHIPS, now=now)
    chips_transfer(
        actor=cashier,
        chip_set=cash,
        source=ChipAccountKind.VAULT,
        target=ChipAccountKind.CAGE,
        chips=BENCH_CAGE_CHIPS,
        now=now,
    )


def bench_staff_and_game():
    """(manager, cashier, the cashier's open shift, the 1/2 EUR game the tables play): the start
    of the benchmarks' rooms, through the services. Needs django.setup()."""
    from django.contrib.auth.models import User

    from cardroom.services import staff_role_grant
    from cashgame.services.games import game_create
    from cashier.services import shift_open

    manager = User.objects.create_user(username="bench-manager", password=None)
    staff_role_grant(user=manager, role="Manager")
    cashier = User.objects.create_user(username="bench-cashier", password=None)
    staff_role_grant(user=cashier, role="Cashier")
    bench_cage_stock(cashier)
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
    return manager, cashier, shift, game
