"""PostgreSQL's side of the backups (OPS-1): `pg_dump` in its custom format and `pg_restore`, in
one transaction, into an empty database.

pg_dump reads every table in one snapshot (a repeatable-read transaction), so the file holds
exactly what was committed when it started, while the room goes on writing: its locks (ACCESS
SHARE) block only schema changes. The client programs come from Debian's postgresql-client, of
the server's major version or newer.
"""

import os
import shutil
import subprocess
from pathlib import Path

from django.db.backends.postgresql.client import DatabaseClient

from cardroom.errors import DomainError

# pg_dump waits at most this long for a table's lock (a migration running) rather than hold up
# every query queued behind its own wait.
LOCK_WAIT_TIMEOUT = "30s"


def _program(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise DomainError(
            "backup_tool_missing",
            f"{name} is not installed: install PostgreSQL's client programs of the server's version "
            "(Debian: apt-get install postgresql-client).",
            rule="OPS-1",
        )
    return path


def _connection_args(settings_dict: dict) -> tuple[list[str], dict]:
    """The database's address as pg_dump and pg_restore take it, and the environment that
    carries its password and TLS options (as Django's `dbshell` passes them to psql)."""
    args: list[str] = ["--no-password"]
    for flag, key in (("--username", "USER"), ("--host", "HOST"), ("--port", "PORT")):
        if settings_dict.get(key):
            args.append(f"{flag}={settings_dict[key]}")
    if settings_dict.get("NAME"):
        args.append(f"--dbname={settings_dict['NAME']}")
    _args, env = DatabaseClient.settings_to_cmd_args_env(settings_dict, [])
    return args, {**os.environ, **(env or {})}


def _run(command: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603


def _last_lines(text: str, count: int = 4) -> str:
    return " | ".join(line for line in text.strip().splitlines()[-count:])


def dump(connection, target: Path) -> None:
    args, env = _connection_args(connection.settings_dict)
    command = [_program("pg_dump"), "--format=custom", f"--lock-wait-timeout={LOCK_WAIT_TIMEOUT}"]
    done = _run([*command, f"--file={target}", *args], env)
    if done.returncode != 0:
        raise DomainError(
            "backup_failed",
            f"pg_dump failed: {_last_lines(done.stderr)}. No backup was written.",
            rule="OPS-1",
        )


def verify(path: Path) -> None:
    """Read the whole archive, as a restore would, writing nothing: a truncated or damaged file
    is refused here, before the database is touched."""
    done = _run([_program("pg_restore"), "--file=/dev/null", str(path)])
    if done.returncode != 0:
        raise DomainError(
            "backup_damaged",
            f"{path} cannot be read whole ({_last_lines(done.stderr)}): it is damaged or incomplete. "
            "Nothing was restored; take another copy of the backup.",
            rule="OPS-1",
        )


def user_tables(connection) -> list[str]:
    """Tables and views outside PostgreSQL's own schemas."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n.nspname || '.' || c.relname FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') "
            "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%%' "
            "ORDER BY 1"
        )
        return [row[0] for row in cursor.fetchall()]


def load(connection, path: Path) -> None:
    """pg_restore in one transaction: on any error it rolls back and the database stays empty.
    Objects are owned by the restoring role, whichever role owned them where the backup was
    taken; the triggers that guard the ledger come back with the tables, after their rows."""
    args, env = _connection_args(connection.settings_dict)
    command = [
        _program("pg_restore"),
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-privileges",
    ]
    done = _run([*command, *args, str(path)], env)
    if done.returncode != 0:
        raise DomainError(
            "restore_failed",
            f"pg_restore failed: {_last_lines(done.stderr)}. Nothing was restored: the restore runs "
            "in one transaction, so the database is as empty as before.",
            rule="OPS-1",
        )
