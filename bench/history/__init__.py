"""A realistic history of the room for the reports benchmark: by default five years of a 40-table
room, about 20 million hands, 50,000 players and 5,000 tournaments, with every ledger posting the
live services would have made (one posting per raked hand, one per cashier transaction, the
shifts' floats and counts, overlays, refunds, jackpot shares).

PostgreSQL: rows go in with COPY on a second connection, in one transaction, with the ledger's
triggers off for that transaction (`session_replication_role = replica`: the append-only guards
only refuse UPDATE and DELETE, the foreign keys and the deferred balance check would cost one
look-up per row) and the big tables' secondary indexes dropped and rebuilt at the end. Every
posting's balance is then checked with one query, and the rollups of every day are built.
SQLite takes plain INSERTs and only small runs (a few days, a small scale) for the tests.

Not generated, because the reports never read them: the audit records of each cashier
transaction (table openings and closings, shifts, voids and payouts are audited), waiting
lists, rulings, tournament seating and move slips.
"""

import contextlib
import random
import time
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from bench.history import cash, tourneys
from bench.history.load import after_load, history_check, load_finish, pg_conninfo, secondary_indexes
from bench.history.room import Ids, Room
from bench.history.room_setup import games_ensure, home_game, next_ids, staff_ensure, structures_read
from bench.history.writer import CopyWriter, InsertWriter
from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of, venue_get
from cashgame.models import CashTable, Hand
from cashier.models import ROOM_ACCOUNT_KINDS, AccountKind, Posting
from cashier.services import account_for

FIVE_YEARS = 1826
SQLITE_MAX_HANDS = 300_000
HANDS_PER_TABLE_DAY = 290  # what the simulation gives on average (used for the SQLite estimate)


@dataclass
class HistoryResult:
    start: date
    end: date
    tables: int
    players: int
    rows: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    checks: dict[str, int] = field(default_factory=dict)


def history_generate(
    *,
    days: int = FIVE_YEARS,
    end: date | None = None,
    scale: float = 1.0,
    seed: int = 2026,
    replica: bool = True,
    drop_indexes: bool = True,
    rollups: bool = True,
    progress=None,
) -> HistoryResult:
    """Generate `days` gaming days ending with `end` (default: yesterday) into an empty ledger.
    `scale` multiplies the room (tables, players, tournament fields); `progress(text)` reports."""
    say = progress or (lambda text: None)
    if days < 1 or not 0 < scale <= 4:
        raise DomainError("invalid_history", _("Give at least one day and a scale between 0 and 4."))
    if Posting.objects.exists() or Hand.objects.exists():
        raise DomainError(
            "history_not_empty",
            _("The ledger already holds postings: generate the history into a new, migrated database."),
        )
    tables_count = max(2, round(40 * scale))
    players_count = max(300, round(50_000 * scale))
    postgres = connection.vendor == "postgresql"
    if not postgres and days * tables_count * HANDS_PER_TABLE_DAY > SQLITE_MAX_HANDS:
        raise DomainError(
            "history_too_big_for_sqlite",
            _(
                "About %(hands)s hands is too much for SQLite: use PostgreSQL (DATABASE_URL) for the full "
                "history, or fewer --days or a smaller --scale."
            )
            % {"hands": f"{days * tables_count * HANDS_PER_TABLE_DAY:,}"},
        )
    end = end or gaming_day_of(timezone.now()) - timedelta(days=1)
    start = end - timedelta(days=days - 1)
    result = HistoryResult(start=start, end=end, tables=tables_count, players=players_count)
    clock = time.perf_counter()
    venue = venue_get()
    with transaction.atomic():
        staff = staff_ensure()
        games = games_ensure()
        top = CashTable.objects.aggregate(top=Max("number"))["top"] or 0
        tables = []
        for n in range(1, tables_count + 1):
            home = home_game(n, tables_count)
            table = CashTable.objects.create(number=top + n, game_id=games[home].id)
            tables.append({"id": table.pk, "number": table.number, "home": home})
        accounts = {kind: account_for(kind=kind).pk for kind in ROOM_ACCOUNT_KINDS}
        for table in tables:
            accounts[("chips", table["id"])] = account_for(
                kind=AccountKind.CHIPS_IN_PLAY, owner=f"table:{table['id']}"
            ).pk
        structures = structures_read()
    ids = Ids(next_ids())
    # With the triggers on, the balance check looks a posting's entries up by posting: keep the
    # indexes, or each check reads the whole table.
    indexes = secondary_indexes() if postgres and drop_indexes and replica else []
    if postgres:
        setup = ["SET LOCAL synchronous_commit = off", "SET LOCAL maintenance_work_mem = '1GB'"]
        if replica:
            setup.append("SET LOCAL session_replication_role = replica")
        setup += [f'DROP INDEX "{name}"' for name, _definition in indexes]
        writer = CopyWriter(dsn=pg_conninfo(), setup=setup)
    else:
        writer = InsertWriter()
    room = Room(writer=writer, rng=random.Random(seed), ids=ids, accounts=accounts, staff=staff, venue=venue)
    room.hand_numbers = {table["id"]: 0 for table in tables}
    first_start, _end = gaming_day_bounds(start, venue=venue)
    # SQLite: one transaction through Django; PostgreSQL: the writer's own transaction.
    with contextlib.nullcontext() if postgres else transaction.atomic():
        try:
            room.players_create(
                count=players_count,
                start_id=ids("player"),
                first_day=start,
                created=int(first_start.timestamp()) - 30 * 86_400,
            )
            for _n in range(players_count - 1):
                ids("player")
            day = start
            while day <= end:
                _day(
                    room,
                    day=day,
                    tables=tables,
                    games=games,
                    structures=structures,
                    scale=scale,
                    venue=venue,
                    years=(day - start).days / 365,
                )
                if day.day == 1 or day == end:
                    stats = room.stats
                    say(f"{day.isoformat()}: {stats['hands']:,} hands, {stats['tournaments']:,} tournaments")
                day += timedelta(days=1)
            writer.flush()
            result.seconds["generate_and_load"] = time.perf_counter() - clock
            clock = time.perf_counter()
            load_finish(writer, room=room, indexes=indexes, postgres=postgres, replica=replica)
        except BaseException:
            if postgres:
                writer.abort()
            raise
    result.seconds["indexes_and_finish"] = time.perf_counter() - clock
    result.rows = dict(writer.counts)
    result.stats = dict(room.stats)
    clock = time.perf_counter()
    after_load(room, tables=tables, venue=venue)
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    result.seconds["analyze"] = time.perf_counter() - clock
    clock = time.perf_counter()
    result.checks = history_check(room=room)
    result.seconds["check"] = time.perf_counter() - clock
    say(f"checked: {result.checks}")
    if rollups:
        from reports.services import rollup_build_missing

        clock = time.perf_counter()
        built = rollup_build_missing(
            limit=None,
            progress=lambda day, rows: (
                say(f"rollups {day.isoformat()}") if day.day == 1 and day.month == 1 else None
            ),
        )
        result.stats["rolled_up_days"] = len(built)
        if postgres:  # the planner's statistics of the new rollup tables
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        result.seconds["rollups"] = time.perf_counter() - clock
    return result


def _day(room: Room, *, day: date, tables, games, structures, scale: float, venue, years: float) -> None:
    """One gaming day: which tables open when (busier at weekends and in winter, and a little more
    each year), their hands, the tournaments, and the cage."""
    rng = room.rng
    start, end = (int(moment.timestamp()) for moment in gaming_day_bounds(day, venue=venue))
    room.day_open(start)
    weekday = day.weekday()
    season = 1.0 + 0.08 * (1 if day.month in (11, 12, 1, 2, 3) else -1)
    busy = (0.78 if weekday < 4 else 0.95 if weekday == 4 else 1.0) * season * (0.92 + 0.03 * years)
    floor = room.staff["floor"]
    for table in tables:
        # The small-stakes tables open first and most often; the big game only when busy.
        chance = busy * (1.0 if table["home"] < 2 else 0.85 if table["home"] < 4 else 0.7)
        if rng.random() > min(0.98, chance):
            continue
        opened = start + int((7.5 + rng.random() * 6.0 if weekday < 5 else 6.0 + rng.random() * 5.0) * 3600)
        closed = start + int((19.0 + rng.random() * 4.8) * 3600)
        home = games[table["home"]]
        periods = [(home, opened, closed)]
        if rng.random() < 0.03 and closed - opened > 5 * 3600:
            # The floor changes the table's game: closed, reopened with another one.
            switch = opened + (closed - opened) // 2
            other = games[(table["home"] + 1) % len(games)]
            periods = [(home, opened, switch), (other, switch + 1_800, closed)]
        cash.table_day(room, table=table, periods=periods, dealer=floor[table["number"] % len(floor)])
    for template in tourneys.schedule(day):
        structure = structures.get(template.structure) or structures[""]
        tourneys.tournament(
            room, template=template, day_start=start, day_end=end, structure=structure, size=max(scale, 0.15)
        )
    room.day_close()
