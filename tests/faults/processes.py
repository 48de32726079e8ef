"""Real processes for the fault tests and the browser journeys: gunicorn, a Celery worker and
beat, a private redis-server; and the /proc look-ups that find what to kill.

Every process here is pointed at the test's own database (pytest-django's ``test_<name>``),
so it sees what a transactional test committed. A test starts what it needs and stops it in
its ``finally``; nothing here is killed by name, only by the process id it started.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
BIN = Path(sys.executable).parent
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def database_port() -> int:
    return int(settings.DATABASES["default"]["PORT"] or 5432)


def database_url() -> str:
    """The URL of the database this test runs on (the test database, not the configured one)."""
    db = settings.DATABASES["default"]
    user = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        user += ":" + quote(db["PASSWORD"])
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{database_port()}/{db['NAME']}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{process.args[0]} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


def log_count(path: Path, text: str) -> int:
    return path.read_text(errors="replace").count(text) if path.exists() else 0


def wait_for_log(path: Path, text: str, timeout: float, count: int = 1) -> None:
    """Wait until `text` appears `count` times in the log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log_count(path, text) >= count:
            return
        time.sleep(0.05)
    tail = path.read_text(errors="replace")[-4000:] if path.exists() else "(no log)"
    raise AssertionError(f"{text!r} x{count} not seen in {path.name} after {timeout} s:\n{tail}")


def wait_for_line(path: Path, *parts: str, timeout: float) -> None:
    """Wait until one line of the log holds every one of `parts`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = path.read_text(errors="replace").splitlines() if path.exists() else []
        if any(all(part in line for part in parts) for line in lines):
            return
        time.sleep(0.05)
    raise AssertionError(f"no line with {parts} in {path.name} after {timeout} s")


def start(command: list[str], log: Path, env: dict) -> subprocess.Popen:
    with log.open("a") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def stop_all(processes) -> None:
    """SIGTERM every one at once, then wait for each (a warm shutdown each, in parallel)."""
    running = [p for p in processes if p is not None and p.poll() is None]
    for process in running:
        process.terminate()
    for process in running:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def kill(process: subprocess.Popen) -> None:
    """SIGKILL: no clean-up, no acknowledgements, no goodbye to the broker or the database."""
    process.kill()
    process.wait(timeout=10)


# gunicorn -----------------------------------------------------------------------------------


def server_env() -> dict:
    """Production settings (debug off) over plain HTTP on loopback, on the test database; no
    broker (a cashier request sends no task)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="fault-test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        AXES_ENABLED="0",
        DATABASE_CONN_MAX_AGE="60",
        CELERY_BROKER_URL="memory://",
        PYTHONUNBUFFERED="1",
    )
    return env


def start_gunicorn(log: Path, *, workers: int, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    command = [str(BIN / "gunicorn"), "cardroom.wsgi", "--workers", str(workers), "--threads", str(threads)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--graceful-timeout", "5"]
    server = start(command, log, server_env())
    wait_for_port(port, server)
    wait_for_children(server.pid, workers)
    return server, port


def check_books() -> subprocess.CompletedProcess:
    """`manage.py check_books` in a process of its own with the server's settings, on the test
    database: the books as an operator would check them after the faults (exit code 0: agreed)."""
    command = [sys.executable, "manage.py", "check_books"]
    return subprocess.run(command, cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=120)


# /proc ----------------------------------------------------------------------------------------


def children(pid: int) -> set[int]:
    """Live child processes of `pid` (gunicorn's web workers)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its closing bracket.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def wait_for_children(
    pid: int, count: int, *, other_than: set[int] = frozenset(), timeout: float = 30
) -> set:
    """Wait until `pid` has `count` live children (respawned ones: none of `other_than`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = children(pid)
        if len(found) == count and not found & set(other_than):
            return found
        time.sleep(0.05)
    raise AssertionError(f"process {pid} has children {children(pid)}, expected {count} new ones")


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        for fd in fd_dir.iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(int(target[8:-1]))
    return inodes


def database_client_ports(pid: int) -> set[int]:
    """The local TCP ports of `pid`'s connections to PostgreSQL: pg_stat_activity.client_port
    of its backends."""
    inodes = _socket_inodes(pid)
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                local, remote, inode = fields[1], fields[2], int(fields[9])
                if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == database_port():
                    ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports


def sessions_waiting_on(table: str) -> set[int]:
    """Client ports of the other database sessions that wait for a row lock of `table`."""
    from django.db import connection

    with connection.cursor() as cursor:
        # Inside a transaction PostgreSQL keeps its first reading of pg_stat_activity: drop it.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query ILIKE %s",
            [f"%{table}%"],
        )
        return {row[0] for row in cursor.fetchall()}


# Redis and Celery ---------------------------------------------------------------------------


class RedisServer:
    """A private, throw-away redis-server (no persistence) that a test may kill and restart
    on the same port, which the machine's shared Redis must never be."""

    def __init__(self, workdir: Path):
        if not os.path.exists(REDIS_SERVER):
            pytest.skip("needs redis-server (apt-get install redis-server)")
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.workdir), "--protected-mode", "no"]
        self.process = start(command, self.workdir / "redis.log", os.environ.copy())
        wait_for_port(self.port, self.process)

    def kill(self) -> None:
        kill(self.process)

    def stop(self) -> None:
        stop(self.process)


def celery_env(broker_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    env.update(DATABASE_URL=database_url(), REDIS_URL=broker_url, DJANGO_DEBUG="1", PYTHONUNBUFFERED="1")
    return env


def start_worker(log: Path, broker_url: str, name: str, concurrency: int = 4) -> subprocess.Popen:
    """A worker as README.md runs it in production (no gossip, no remote control), on threads."""
    command = [str(BIN / "celery"), "-A", "cardroom", "worker", "--pool=threads", "--loglevel=INFO"]
    command += [f"--concurrency={concurrency}", f"--hostname={name}-{os.getpid()}@%h"]
    command += ["--without-gossip", "--without-mingle"]
    return start(command, log, celery_env(broker_url))


def start_beat(log: Path, broker_url: str, schedule: Path) -> subprocess.Popen:
    command = [str(BIN / "celery"), "-A", "cardroom", "beat", "--loglevel=INFO", "--schedule", str(schedule)]
    return start(command, log, celery_env(broker_url))


@contextlib.contextmanager
def broker_of_this_process(url: str):
    """Point this (the test's) process's Celery app at `url`, so the ETA messages that the
    clock services send after commit reach the worker under test."""
    from cardroom.celery import app

    # The pools live on in kombu's process-wide registry, keyed by broker: set aside, never
    # closed, so the next user of either broker gets a working pool back.
    previous = (app.conf.broker_url, app._pool, app.amqp._producer_pool)
    app._pool, app.amqp._producer_pool = None, None
    app.conf.broker_url = url
    try:
        yield
    finally:
        app.conf.broker_url, app._pool, app.amqp._producer_pool = previous


@contextlib.contextmanager
def celery_processes(tmp_path: Path, broker_url: str, worker_name: str):
    """Yields `(start_one, started, tmp_path)`: `start_one("worker")` or `start_one("beat")`
    starts that process on `broker_url` and waits until it is ready (again, after a kill);
    `started` holds the latest of each. This process sends its messages to the same broker,
    and every process started is stopped at the end."""
    started: dict = {}

    # A start is waited for up to 60 s, a bound, not a measure: a process that imports Django and
    # Celery took over 30 s to be ready on a 2-core machine shared by several test runs, and a
    # pass waits no longer for the larger bound (tests/faults/test_beat_takeover.py waits 60 s too).
    def start_one(name: str):
        log = tmp_path / f"{name}.log"
        if name == "beat":
            started[name] = start_beat(log, broker_url, tmp_path / "beat-schedule")
            wait_for_log(log, "beat: Starting", timeout=60)
        else:
            started[name] = start_worker(log, broker_url, worker_name)
            wait_for_log(log, "ready.", timeout=60, count=log_count(log, "ready.") + 1)
        return started[name]

    try:
        with broker_of_this_process(broker_url):
            yield start_one, started, tmp_path
    finally:
        stop_all(started.values())
