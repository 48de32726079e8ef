"""Shared set-up for the benchmarks: a throw-away PostgreSQL database and django.setup()."""

import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"


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


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]
