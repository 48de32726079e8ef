"""Backups and restores of the whole database (OPS-1): `manage.py backup` and `manage.py restore`.

A backup is one file named for the venue and the moment it was taken (UTC), e.g.
`grand-casino-20261202-031500Z.pgdump`, written under a temporary name and renamed when whole,
with its SHA-256 beside it in `sha256sum`'s format (`<file>.sha256`). PostgreSQL's is pg_dump's
custom format (postgres.py); the embedded default's is an SQLite database (sqlite.py). Either is
taken while the room runs and holds one consistent moment of it.

A restore loads a backup into an empty database only: over a database that holds anything it is
refused. The file is checked first (its kind, its checksum, then read whole), the database only
then, and the load itself runs in one transaction, so a refusal or a failure leaves the database
as it was. The command then runs the books check (CAG-1): a restore is proven by the books agreeing.
"""

import getpass
import hashlib
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django.utils.text import slugify

from cardroom.backups import postgres, sqlite
from cardroom.errors import DomainError
from cardroom.selectors import venue_get
from cardroom.services import audit_record

ENGINES = {"postgresql": postgres, "sqlite": sqlite}
EXTENSIONS = {"postgresql": "pgdump", "sqlite": "sqlite3"}
# What a file starts with: pg_dump's custom format, an SQLite database.
MAGIC = {"postgresql": b"PGDMP", "sqlite": b"SQLite format 3\x00"}
ENGINE_NAMES = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int  # bytes
    sha256: str
    taken_at: datetime  # when it started: it holds everything committed before
    seconds: float

    @property
    def checksum_path(self) -> Path:
        return checksum_path(self.path)


@dataclass(frozen=True)
class Restored:
    path: Path
    sha256: str
    # Migrations this code has that the backup's schema lacks (run `migrate`), and migrations
    # the backup's schema has that this code lacks (a backup of a newer version).
    missing_migrations: list[str]
    unknown_migrations: list[str]


def checksum_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _engine():
    vendor = connection.vendor
    if vendor not in ENGINES:  # pragma: no cover - only the two supported databases
        raise DomainError("backup_unsupported", f"No backup for a {vendor} database.", rule="OPS-1")
    return vendor, ENGINES[vendor]


def backup_file_name(*, venue_name: str, vendor: str, at: datetime) -> str:
    stamp = at.astimezone(UTC).strftime("%Y%m%d-%H%M%SZ")
    return f"{slugify(venue_name) or 'cardroom'}-{stamp}.{EXTENSIONS[vendor]}"


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def backup_take(*, directory: Path, now: datetime | None = None) -> Backup:
    """Write a consistent backup of the database into `directory` while the room runs."""
    vendor, engine = _engine()
    now = now or timezone.now()
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / backup_file_name(venue_name=venue_get().name, vendor=vendor, at=now)
    if path.exists():
        raise DomainError("backup_exists", f"{path} already exists: nothing was written.", rule="OPS-1")
    partial = path.with_name(path.name + ".partial")
    started = time.monotonic()
    try:
        engine.dump(connection, partial)
        _fsync(partial)
        sha256 = file_sha256(partial)
        size = partial.stat().st_size
        os.replace(partial, path)  # a file under a backup's name is always whole
    finally:
        partial.unlink(missing_ok=True)
    checksum_path(path).write_text(f"{sha256}  {path.name}\n")
    _fsync(directory)
    return Backup(path=path, size=size, sha256=sha256, taken_at=now, seconds=time.monotonic() - started)


def _file_kind(path: Path) -> str:
    with path.open("rb") as stream:
        head = stream.read(16)
    for vendor, magic in MAGIC.items():
        if head.startswith(magic):
            return vendor
    raise DomainError(
        "not_a_backup",
        f"{path} is not a card room backup: it is neither a PostgreSQL custom-format archive nor "
        "an SQLite database. Nothing was restored.",
        rule="OPS-1",
    )


def _check_checksum(path: Path, *, required: bool) -> str:
    sha256 = file_sha256(path)
    expected_path = checksum_path(path)
    if not expected_path.exists():
        if required:
            raise DomainError(
                "checksum_missing",
                f"{path} has no checksum file beside it ({expected_path.name}), so a damaged copy "
                "could not be told from a good one. Copy the backup with its .sha256 file, or pass "
                "--without-checksum to restore the file as it is. Nothing was restored.",
                rule="OPS-1",
            )
        return sha256
    expected = expected_path.read_text().split()[:1]
    if expected != [sha256]:
        raise DomainError(
            "checksum_mismatch",
            f"{path} does not match its checksum in {expected_path.name} (SHA-256 {sha256}, "
            f"expected {expected[0] if expected else 'nothing'}): the file is damaged or incomplete. "
            "Nothing was restored; take another copy of the backup.",
            rule="OPS-1",
        )
    return sha256


def _refuse_unless_empty(engine) -> None:
    tables = engine.user_tables(connection)
    if tables:
        name = connection.settings_dict["NAME"]
        raise DomainError(
            "database_not_empty",
            f"The database {name} already holds {len(tables)} tables ({', '.join(tables[:3])}, ...): "
            "restore never writes over data. Restore into a new, empty database (point DATABASE_URL "
            "at it). Nothing was restored.",
            rule="OPS-1",
        )


def _migrations_state() -> tuple[list[str], list[str]]:
    executor = MigrationExecutor(connection)
    missing = [
        str(migration)
        for migration, _backwards in executor.migration_plan(executor.loader.graph.leaf_nodes())
    ]
    unknown = sorted(
        f"{app}.{name}"
        for app, name in set(executor.loader.applied_migrations) - set(executor.loader.disk_migrations)
    )
    return missing, unknown


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a process user with no name (a container's)
        return f"uid {os.getuid()}"


def backup_restore(*, path: Path, checksum_required: bool = True, now: datetime | None = None) -> Restored:
    """Load the backup at `path` into the empty database, or refuse and change nothing. The
    caller runs the books check next (the command does)."""
    vendor, engine = _engine()
    path = Path(path)
    if not path.is_file():
        raise DomainError("backup_missing", f"No backup at {path}. Nothing was restored.", rule="OPS-1")
    kind = _file_kind(path)
    if kind != vendor:
        raise DomainError(
            "backup_other_database",
            f"{path} is a {ENGINE_NAMES[kind]} backup, but this installation's database is "
            f"{ENGINE_NAMES[vendor]} (DATABASE_URL). Nothing was restored.",
            rule="OPS-1",
        )
    sha256 = _check_checksum(path, required=checksum_required)
    engine.verify(path)
    _refuse_unless_empty(engine)
    engine.load(connection, path)
    missing, unknown = _migrations_state()
    if not missing and not unknown:
        audit_record(
            actor=None,
            action="database.restore",
            after={"file": path.name, "sha256": sha256},
            note=f"Restored from {path} by the operating-system user {_os_user()}.",
            now=now,
        )
    return Restored(path=path, sha256=sha256, missing_migrations=missing, unknown_migrations=unknown)
