"""Issue 6: the manager's reports over five years of history as fast as over one month.

Run from the project root:

    .venv/bin/python bench/reports_history.py [--keep] [--history-db NAME] [--month-db NAME]
                                              [--scale 1.0] [--repeat 7]

Two PostgreSQL databases are created and migrated: cardroom_bench_<pid>_5y gets five years of
history and cardroom_bench_<pid>_1m one month (`bench/generate_history.py`: a 40-table room,
about 20 million hands, 50,000 players, 5,000 tournaments for five years; rollups built). Both are
dropped at the end unless --keep. --history-db (or DATABASE_URL) names an existing five-year
database to measure instead of generating one (generation takes the better part of an hour);
--month-db likewise for the one-month database.

On each database the script opens, as a logged-in manager through Django's test client (DEBUG
off, so what a manager waits for: the selectors, the queries and the template), the range report
of the last month per day and of the last year per month: the result per period against the
previous period, cash games per table and per game and stakes, tournament profit and loss with
guarantees and overlays, the jackpot fund. It prints the median and the slowest of --repeat
requests after one warm-up, and the ratio five years / one month of each. Target: under 1 s
each, ratio under 2. The daily report, player activity and the AML list are measured as well.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import PG_ADMIN_DSN  # noqa: E402

TARGET_SECONDS = 1.0
TARGET_RATIO = 2.0


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(sql)


def _url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def _env(url: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "LOG_LEVEL": "WARNING",
    }


def _run(url: str, script: str, *args: str) -> str:
    """Run a script of the project (manage.py, bench/generate_history.py) on that database."""
    done = subprocess.run(
        [sys.executable, script, *args],
        cwd=ROOT,
        env=_env(url),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"{script} {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def generate(name: str, *, days: int, scale: float) -> float:
    """Create, migrate and fill a database; returns the seconds generate_history took."""
    _admin(f'CREATE DATABASE "{name}"')
    _run(_url(name), "manage.py", "migrate", "--verbosity", "0")
    started = time.perf_counter()
    output = _run(_url(name), "bench/generate_history.py", "--days", str(days), "--scale", str(scale))
    seconds = time.perf_counter() - started
    print(f"--- {name}: generate_history --days {days} ({seconds:,.0f} s)")
    print("\n".join(line for line in output.splitlines() if line.startswith("  ")))
    return seconds


def measure(url: str, repeat: int) -> dict:
    """Time the report pages in a child process set up on that database."""
    done = subprocess.run(
        [sys.executable, __file__, "--measure", url, "--repeat", str(repeat)],
        cwd=ROOT,
        env=_env(url),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"measuring {url} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(repeat: int) -> None:
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings
    from django.utils import timezone

    from cardroom.roles import Role
    from cardroom.selectors import gaming_day_of
    from cardroom.services import staff_role_grant
    from reports.selectors import range_report

    # Static files as the development server finds them (no collectstatic for a benchmark).
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    override_settings(STORAGES=storages).enable()
    user, created = get_user_model().objects.get_or_create(username="bench-manager")
    if created:
        staff_role_grant(user=user, role=Role.MANAGER.value)
    client = Client()
    client.force_login(user)
    end = gaming_day_of(timezone.now()) - timedelta(days=1)
    month = {"start": (end - timedelta(days=29)).isoformat(), "end": end.isoformat(), "group": "day"}
    year = {"start": (end - timedelta(days=364)).isoformat(), "end": end.isoformat(), "group": "month"}
    pages = {
        "monthly": ("/reports/range/", month),
        "yearly": ("/reports/range/", year),
        "daily": ("/reports/", {"day": end.isoformat()}),
        "players_month": ("/reports/players/", {**month, "order": "buy_ins"}),
        "players_year": ("/reports/players/", {**year, "order": "buy_ins"}),
        "aml_month": ("/reports/aml/", month),
    }
    results = {}
    for name, (path, query) in pages.items():
        timings, size = [], 0
        for attempt in range(repeat + 1):
            started = time.perf_counter()
            response = client.get(path, query)
            elapsed = time.perf_counter() - started
            assert response.status_code == 200, (name, response.status_code)
            size = len(response.content)
            if attempt:  # the first one warms the caches
                timings.append(elapsed)
        results[name] = {"median": statistics.median(timings), "max": max(timings), "bytes": size}
    for name, query in (("monthly_selector", month), ("yearly_selector", year)):
        timings = []
        for _attempt in range(repeat):
            started = time.perf_counter()
            report = range_report(
                start=timezone.datetime.fromisoformat(query["start"]).date(),
                end=timezone.datetime.fromisoformat(query["end"]).date(),
                group=query["group"],
            )
            timings.append(time.perf_counter() - started)
        results[name] = {"median": statistics.median(timings), "max": max(timings), "bytes": 0}
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM cashgame_hand")
        hands = cursor.fetchone()[0]
        cursor.execute("SELECT COUNT(*) FROM cashier_entry")
        entries = cursor.fetchone()[0]
    results["_data"] = {"hands": hands, "entries": entries, "end": end.isoformat(), "rake": report.total.rake}
    print(json.dumps(results))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--history-db", help="an existing five-year database to measure (kept)")
    parser.add_argument("--month-db", help="an existing one-month database to measure (kept)")
    parser.add_argument("--keep", action="store_true", help="keep the databases this run creates")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        _child(args.repeat)
        return
    created = []
    history = args.history_db or (
        os.environ["DATABASE_URL"].rsplit("/", 1)[-1] if os.environ.get("DATABASE_URL") else ""
    )
    try:
        if not history:
            history = f"cardroom_bench_{os.getpid()}_5y"
            created.append(history)
            generate(history, days=1826, scale=args.scale)
        month = args.month_db
        if not month:
            month = f"cardroom_bench_{os.getpid()}_1m"
            created.append(month)
            generate(month, days=30, scale=args.scale)
        five = measure(_url(history), args.repeat)
        one = measure(_url(month), args.repeat)
    finally:
        if not args.keep:
            for name in created:
                _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        elif created:
            print(f"kept: {', '.join(created)}")
    data, small = five["_data"], one["_data"]
    print(
        f"five-year history: {data['hands']:,} hands, {data['entries']:,} ledger entries; one month: "
        f"{small['hands']:,} hands, {small['entries']:,} entries (until {data['end']})"
    )
    print(f"{'report':<18}{'5 years median / max':>24}{'1 month median / max':>24}{'ratio':>8}")
    worst_time = worst_ratio = 0.0
    for name in five:
        if name.startswith("_"):
            continue
        a, b = five[name], one[name]
        ratio = a["median"] / b["median"]
        print(
            f"{name:<18}{a['median'] * 1000:>13.0f} / {a['max'] * 1000:>5.0f} ms"
            f"{b['median'] * 1000:>13.0f} / {b['max'] * 1000:>5.0f} ms{ratio:>8.2f}"
        )
        if name in ("monthly", "yearly"):
            worst_time = max(worst_time, a["max"])
            worst_ratio = max(worst_ratio, ratio)
    print(f"slowest monthly/yearly page on five years / 1 s = {worst_time / TARGET_SECONDS:.3f} (target < 1)")
    print(f"largest ratio five years / one month = {worst_ratio:.2f} (target < {TARGET_RATIO:.0f})")


if __name__ == "__main__":
    main()
