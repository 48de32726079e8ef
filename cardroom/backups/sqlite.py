"""SQLite's side of the backups (OPS-1), for the embedded default: SQLite's online backup API.

The backup copies every page in one step under a read lock, so the copy is the database as one
moment left it, while the web server, the worker and beat go on (a writer waits out the copy, as
it waits for any other reader; the settings give each connection 20 s).
"""

import sqlite3
import time
from pathlib import Path

from cardroom.errors import DomainError

# How long a backup waits for a writer to finish (seconds) before it gives up.
LOCK_WAIT_SECONDS = 30


def dump(connection, target: Path) -> None:
    # A connection of its own, as any reader's. Django opens SQLite with uri=True: the name is a
    # plain path, or a file: URI (the tests' shared in-memory database).
    source = sqlite3.connect(connection.settings_dict["NAME"], uri=True, timeout=LOCK_WAIT_SECONDS)
    copy = sqlite3.connect(target)
    deadline = time.monotonic() + LOCK_WAIT_SECONDS

    def give_up_when_locked_too_long(status: int, remaining: int, total: int) -> None:
        # Called after every attempt; SQLite's own retry would wait for ever on a writer that
        # never finishes.
        if remaining and time.monotonic() > deadline:
            raise TimeoutError(f"the database stayed locked by a writer for {LOCK_WAIT_SECONDS} s")

    try:
        # Every page in one step, under one read lock: one consistent moment.
        source.backup(copy, progress=give_up_when_locked_too_long)
    except (sqlite3.Error, TimeoutError) as error:
        raise DomainError(
            "backup_failed", f"SQLite's backup failed: {error}. No backup was written.", rule="OPS-1"
        ) from error
    finally:
        copy.close()
        source.close()
    _check(target, what="the backup just written")


def _check(path: Path, *, what: str) -> None:
    """SQLite's integrity check of the whole file, and the card room's migrations table in it."""
    try:
        database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = [row[0] for row in database.execute("PRAGMA integrity_check")]
            has_migrations = database.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
            ).fetchone()
        finally:
            database.close()
    except sqlite3.Error as error:
        result, has_migrations = [str(error)], True
    if result != ["ok"]:
        raise DomainError(
            "backup_damaged",
            f"{path} fails SQLite's integrity check ({'; '.join(result[:3])}): {what} is damaged or "
            "incomplete. Nothing was restored; take another copy of the backup.",
            rule="OPS-1",
        )
    if not has_migrations:
        raise DomainError(
            "not_a_backup",
            f"{path} is an SQLite database but not a card room's (it has no migrations table). "
            "Nothing was restored.",
            rule="OPS-1",
        )


def verify(path: Path) -> None:
    _check(path, what="the file")


def user_tables(connection) -> list[str]:
    return sorted(connection.introspection.table_names())


def load(connection, path: Path) -> None:
    """Copy the backup's pages into the (empty) database in one step: on an error the
    destination's write transaction rolls back and it stays as it was."""
    connection.ensure_connection()
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        source.backup(connection.connection)
    except sqlite3.Error as error:
        raise DomainError(
            "restore_failed", f"SQLite's restore failed: {error}. Nothing was restored.", rule="OPS-1"
        ) from error
    finally:
        source.close()
