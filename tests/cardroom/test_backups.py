"""Backups and restores (OPS-1): `manage.py backup` names its file for the venue and the time and
writes its checksum beside it; `manage.py restore` refuses, changing nothing, a database that
holds data and a file that is not a whole backup, and proves a restore by the books agreeing.

Backups here are of this test's own database, on SQLite or PostgreSQL (whichever the run uses);
the restore into a new database runs as an operator runs it, `manage.py restore` in a process of
its own. The backup taken while a busy room posts is tests/faults/test_backup_under_load.py.
"""

import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils.text import slugify

from cardroom.backups import MAGIC, backup_file_name, backup_restore, backup_take, checksum_path, file_sha256
from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.selectors import venue_get
from cashier.models import Posting

ROOT = Path(__file__).resolve().parents[2]
AT = datetime(2026, 11, 10, 2, 30, 5, tzinfo=UTC)


def what_is_there() -> tuple:
    """Everything a refused restore must leave as it was."""
    return (
        sorted(connection.introspection.table_names()),
        AuditRecord.objects.count(),
        list(Posting.objects.order_by("pk").values_list("pk", flat=True)),
    )


@pytest.fixture
def backup(tmp_path, db) -> Path:
    """A backup of this test's database, taken before the test writes anything (on SQLite an
    open write transaction would hold the backup back until it ends: a test's never does)."""
    return backup_take(directory=tmp_path / "backups", now=AT).path


def refused(code: str, **kwargs) -> str:
    before = what_is_there()
    with pytest.raises(DomainError) as error:
        backup_restore(**kwargs)
    assert (error.value.code, error.value.rule) == (code, "OPS-1")
    assert error.value.message.endswith(("Nothing was restored.", "take another copy of the backup."))
    assert what_is_there() == before
    return error.value.message


def test_backup_is_named_for_the_venue_and_the_time_with_its_checksum__OPS_1(tmp_path, db, capsys):
    call_command("backup", "--dir", str(tmp_path))
    out = capsys.readouterr().out

    [path] = [p for p in tmp_path.iterdir() if not p.name.endswith(".sha256")]
    extension = {"sqlite": "sqlite3", "postgresql": "pgdump"}[connection.vendor]
    assert re.fullmatch(rf"{slugify(venue_get().name)}-\d{{8}}-\d{{6}}Z\.{extension}", path.name)
    assert path.read_bytes().startswith(MAGIC[connection.vendor])
    sha256 = file_sha256(path)
    assert checksum_path(path).read_text() == f"{sha256}  {path.name}\n"  # as sha256sum -c reads it
    assert f"Backup written: {path}\n" in out
    assert f"  sha256    {sha256}  (also in {path.name}.sha256)\n" in out
    assert f"({path.stat().st_size:,} bytes)" in out
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_backup_file_name_is_the_venue_and_the_time_in_utc__OPS_1():
    summer = datetime(2026, 7, 1, 1, 15, 0, tzinfo=ZoneInfo("Europe/Bratislava"))
    assert (
        backup_file_name(venue_name="Grand Casino Bratislava", vendor="postgresql", at=summer)
        == "grand-casino-bratislava-20260630-231500Z.pgdump"
    )
    assert (
        backup_file_name(venue_name="Kráľ Pik", vendor="sqlite", at=AT) == "kral-pik-20261110-023005Z.sqlite3"
    )
    assert backup_file_name(venue_name="***", vendor="sqlite", at=AT) == "cardroom-20261110-023005Z.sqlite3"


def test_a_second_backup_in_the_same_second_is_refused__OPS_1(tmp_path, db):
    first = backup_take(directory=tmp_path, now=AT)
    with pytest.raises(DomainError) as error:
        backup_take(directory=tmp_path, now=AT)
    assert error.value.code == "backup_exists"
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.path.name, first.checksum_path.name]
    assert file_sha256(first.path) == first.sha256


def test_restore_over_a_database_with_data_is_refused__OPS_1(backup, cashier):
    message = refused("database_not_empty", path=backup)
    assert re.match(r"The database \S+ already holds \d+ tables \(", message)
    assert "restore never writes over data. Restore into a new, empty database" in message


def test_restore_of_a_truncated_backup_is_refused__OPS_1(backup, tmp_path):
    truncated = tmp_path / backup.name
    truncated.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])
    # Its checksum file copied along with it, recomputed: the damage is found by reading it whole.
    checksum_path(truncated).write_text(f"{file_sha256(truncated)}  {truncated.name}\n")
    message = refused("backup_damaged", path=truncated)
    assert "is damaged or incomplete" in message


def test_restore_of_a_backup_not_matching_its_checksum_is_refused__OPS_1(backup):
    data = bytearray(backup.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit, where nothing else would notice
    backup.write_bytes(bytes(data))
    message = refused("checksum_mismatch", path=backup)
    assert f"{backup} does not match its checksum in {backup.name}.sha256" in message


def test_restore_without_its_checksum_file_is_refused_unless_asked__OPS_1(backup):
    checksum_path(backup).unlink()
    message = refused("checksum_missing", path=backup)
    assert "pass --without-checksum" in message
    # Asked to, it restores the file as it is: here it goes on to find the database not empty.
    refused("database_not_empty", path=backup, checksum_required=False)


def test_restore_of_a_file_that_is_not_a_backup_is_refused__OPS_1(tmp_path, db):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a backup")
    message = refused("not_a_backup", path=notes)
    assert message.startswith(f"{notes} is not a card room backup")
    refused("backup_missing", path=tmp_path / "gone.pgdump")

    other = "postgresql" if connection.vendor == "sqlite" else "sqlite"
    foreign = tmp_path / "other.bak"
    foreign.write_bytes(MAGIC[other] + b"\0" * 100)
    assert "backup, but this installation's database is" in refused("backup_other_database", path=foreign)


def test_the_restore_command_refuses_with_the_message(backup):
    with pytest.raises(CommandError, match="already holds"):
        call_command("restore", str(backup))


def manage(*args: str, database: Path) -> subprocess.CompletedProcess:
    """`manage.py ...` as an operator runs it, on the SQLite file `database`."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_DEBUG="1")
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)


def entries_of(database: Path) -> list[tuple]:
    with closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT id, posting_id, amount_cents FROM cashier_entry ORDER BY id").fetchall()


@pytest.mark.long
@pytest.mark.skipif(
    settings.DATABASE_IS_POSTGRES, reason="PostgreSQL's: tests/faults/test_backup_under_load.py"
)
def test_backup_restores_into_a_new_database_with_the_books_agreeing__OPS_1(backup, tmp_path):
    """SQLite's round trip as an operator makes it, each command a process of its own: a room
    with money in it backed up, restored into a new database, the books checked there.
    (PostgreSQL's is tests/faults/test_backup_under_load.py.)"""
    room = tmp_path / "room.sqlite3"
    room.write_bytes(backup.read_bytes())  # a migrated database, as `make run` leaves one
    built = manage("shell", "-c", "from tests.cardroom.backup_room import build; build()", database=room)
    assert built.returncode == 0, built.stderr
    entries = entries_of(room)
    # The float, two buy-ins of 200.00 EUR and the hand's 2.00 EUR of rake, two lines each.
    assert [amount for _id, _posting, amount in entries] == [
        100000,
        -100000,
        20000,
        -20000,
        20000,
        -20000,
        200,
        -200,
    ]

    taken = manage("backup", "--dir", str(tmp_path / "nightly"), database=room)
    assert taken.returncode == 0, taken.stderr
    [path] = (tmp_path / "nightly").glob("*.sqlite3")
    assert f"Backup written: {path}\n" in taken.stdout

    restored = tmp_path / "restored.sqlite3"
    done = manage("restore", str(path), database=restored)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Restored {path} (sha256 {file_sha256(path)}).\n" in done.stdout
    checks = re.findall(r"^(ok  |DIFF) ", done.stdout, re.MULTILINE)
    assert checks == ["ok  "] * len(checks) and len(checks) >= 12
    assert f"All {len(checks)} checks agree." in done.stdout
    assert entries_of(restored) == entries
    with closing(sqlite3.connect(restored)) as db:
        assert db.execute(
            "SELECT actor_name, after FROM cardroom_auditrecord WHERE action = 'database.restore'"
        ).fetchall() == [("system", f'{{"file": "{path.name}", "sha256": "{file_sha256(path)}"}}')]

    # Again into the same database: refused, and it changed nothing.
    again = manage("restore", str(path), database=restored)
    assert again.returncode == 1
    assert "already holds" in again.stderr and "restore never writes over data" in again.stderr
    assert entries_of(restored) == entries
