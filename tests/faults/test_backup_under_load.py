"""A backup taken in the middle of a busy room, restored into a new database (OPS-1).

Three dealers deal and rake hands at their tables and two cashiers buy players in and top them up
at theirs, each on a database connection of its own, while `manage.py backup` runs in a process
of its own with the production settings (pg_dump on this test's PostgreSQL database). A monitor
watches pg_stat_activity for pg_dump's session, so the test knows that postings were committed
while pg_dump ran. The backup is then restored, as an operator restores it, into a new
database: first a truncated copy of it, refused with the new database left empty, then the
backup itself, whose books check must agree (a dump that caught half a posting, or a session
without its receipt, would not). Every posting committed before the backup started must be in
it, and nothing that was never committed.
"""

import random
import re
import subprocess
import sys
import threading
import time

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections

from cardroom.backups import checksum_path, file_sha256
from cardroom.roles import Role
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.sessions import session_buy_in, session_state_change, session_top_up
from cashier.models import Posting
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock
from tests.faults.processes import ROOT, database_url, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.long, pytest.mark.django_db(transaction=True)]

DEALT_TABLES = 3  # six players each, hands dealt and raked without a pause
CASHIERS = 2  # each buys players in at four tables of their own, and tops them up
CASHIER_TABLES = 4
SEATS = 9
WARM_UP_SECONDS = 1.0
# Each desk and dealer pauses this long between its requests (seconds): a busy room, not a
# benchmark, so that the backup's own process gets the machine's cores too.
PAUSE = 0.02


class Room:
    """The busy room: the threads, and the moment of every commit they made."""

    def __init__(self):
        self.stop = threading.Event()
        self.commits: list[float] = []  # time.monotonic() after each service call returned
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()
        self.floor = make_staff("load-floor", Role.FLOOR)
        game = make_game()
        self.dealt = [make_table(game, number) for number in range(1, DEALT_TABLES + 1)]
        self.desks = []
        for desk in range(CASHIERS):
            cashier = make_staff(f"load-cashier-{desk}", Role.CASHIER)
            shift = shift_open(actor=cashier, opening_float_cents=5_000_000)
            first = 10 * (desk + 1)
            tables = [make_table(game, first + n) for n in range(CASHIER_TABLES)]
            self.desks.append((cashier, shift, tables))
        cage_stock(self.desks[0][0])  # the cage holds chips before its first buy-in (CHP-2)
        for table in self.dealt:
            for seat in range(1, 7):
                self.buy_in(*self.desks[0][:2], table, seat)

    def buy_in(self, cashier, shift, table, seat: int):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at="2026-01-01T00:00:00Z"),
            seat=seat,
            amount_cents=30_000,
            idempotency_key=f"load-buy-in-{table.number}-{seat}",
        )
        return session_state_change(actor=self.floor, session=session, action="posted")

    def committed(self) -> None:
        with self.lock:
            self.commits.append(time.monotonic())

    def run(self, work) -> threading.Thread:
        def loop():
            try:
                while not self.stop.is_set():
                    work()
                    self.committed()
                    time.sleep(PAUSE)
            except BaseException as error:
                self.errors.append(error)
            finally:
                connections.close_all()

        thread = threading.Thread(target=loop)
        thread.start()
        return thread

    def dealer(self, table):
        def deal():
            hand = hand_flop(
                actor=self.floor, hand=hand_start(actor=self.floor, table=table, seats=[1, 2, 3, 4, 5, 6])
            )
            hand_end(actor=self.floor, hand=hand, pot_cents=1_000)

        return deal

    def cashier(self, desk: int):
        cashier, shift, tables = self.desks[desk]
        free = [(table, seat) for table in tables for seat in range(1, SEATS + 1)]
        seated = []
        rng = random.Random(desk)
        count = iter(range(10**6))

        def work():
            if free and (not seated or rng.random() < 0.5):
                seated.append(self.buy_in(cashier, shift, *free.pop(0)))
                return
            session_top_up(
                actor=cashier,
                shift=shift,
                session=rng.choice(seated),
                amount_cents=100,
                chips_on_table_cents=20_000,
                idempotency_key=f"load-top-up-{desk}-{next(count)}",
            )

        return work


def watch_for_pg_dump(stop: threading.Event, seen: list[float]) -> None:
    """Note every moment pg_dump's session is open on this database (by its application name)."""
    with psycopg.connect(database_url().replace("postgres://", "postgresql://"), autocommit=True) as db:
        while not stop.is_set():
            running = db.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND application_name = 'pg_dump'"
            ).fetchone()[0]
            if running:
                seen.append(time.monotonic())
            time.sleep(0.005)


def manage(*args: str, database: str) -> subprocess.CompletedProcess:
    """`manage.py ...` in a process of its own, with the production settings, on `database`."""
    env = {**server_env(), "DATABASE_URL": database_url().rsplit("/", 1)[0] + f"/{database}"}
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def new_database():
    """An empty database beside this test's, dropped afterwards."""
    name = f"{settings.DATABASES['default']['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def restored(database: str, query: str) -> list[tuple]:
    url = database_url().replace("postgres://", "postgresql://").rsplit("/", 1)[0] + f"/{database}"
    with psycopg.connect(url) as db:
        return db.execute(query).fetchall()


def test_backup_in_a_busy_room_restores_with_the_books_agreeing__OPS_1(tmp_path, new_database, capsys):
    room = Room()
    threads = [room.run(room.dealer(table)) for table in room.dealt]
    threads += [room.run(room.cashier(desk)) for desk in range(CASHIERS)]
    seen: list[float] = []
    watching = threading.Event()
    watcher = threading.Thread(target=watch_for_pg_dump, args=(watching, seen))
    watcher.start()
    try:
        time.sleep(WARM_UP_SECONDS)
        # Everything committed before the backup starts: what this query sees.
        before = set(Posting.objects.values_list("pk", flat=True))
        started = time.monotonic()
        taken = manage("backup", "--dir", str(tmp_path), database=settings.DATABASES["default"]["NAME"])
        finished = time.monotonic()
        time.sleep(0.5)  # the room goes on after the backup too
    finally:
        room.stop.set()
        watching.set()
        for thread in [*threads, watcher]:
            thread.join(timeout=60)
    assert room.errors == []
    assert taken.returncode == 0, taken.stdout + taken.stderr
    assert seen, "pg_dump's session was never seen"
    during_dump = [at for at in room.commits if seen[0] <= at <= seen[-1]]
    during_command = [at for at in room.commits if started <= at <= finished]
    with capsys.disabled():
        print(
            f"\nbackup under load: {len(before)} postings before it, {len(during_command)} commits while "
            f"the command ran ({finished - started:.1f} s), {len(during_dump)} of them while pg_dump's "
            f"session was open ({seen[-1] - seen[0]:.2f} s seen)"
        )
    assert len(during_dump) >= 3, "too few commits while pg_dump ran to call the room busy"
    assert books_problems() == []
    live = set(Posting.objects.values_list("pk", flat=True))

    [path] = tmp_path.glob("*.pgdump")
    sha256 = file_sha256(path)
    assert re.search(rf"^  sha256    {sha256}  ", taken.stdout, re.MULTILINE)

    # A truncated copy, with a checksum file that matches it: refused, the new database untouched.
    truncated = tmp_path / "truncated" / path.name
    truncated.parent.mkdir()
    truncated.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])
    checksum_path(truncated).write_text(f"{file_sha256(truncated)}  {truncated.name}\n")
    refused = manage("restore", str(truncated), database=new_database)
    assert refused.returncode == 1
    assert "is damaged or incomplete. Nothing was restored" in refused.stderr
    assert restored(new_database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == [(0,)]

    done = manage("restore", str(path), database=new_database)
    assert done.returncode == 0, done.stdout + done.stderr
    checks = re.findall(r"^(ok  |DIFF) ", done.stdout, re.MULTILINE)
    assert checks == ["ok  "] * len(checks) and len(checks) >= 12
    assert f"All {len(checks)} checks agree." in done.stdout
    in_backup = {pk for (pk,) in restored(new_database, "SELECT id FROM cashier_posting")}
    assert before <= in_backup <= live
    assert len(in_backup) < len(live)  # the room went on after pg_dump's moment
    assert restored(
        new_database, "SELECT count(*) FROM cardroom_auditrecord WHERE action = 'database.restore'"
    ) == [(1,)]

    # And over the restored database, which now holds data: refused, nothing changed.
    again = manage("restore", str(path), database=new_database)
    assert again.returncode == 1 and "restore never writes over data" in again.stderr
    assert {pk for (pk,) in restored(new_database, "SELECT id FROM cashier_posting")} == in_backup
