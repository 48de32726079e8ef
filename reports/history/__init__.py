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

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import Role
from cardroom.selectors import gaming_day_bounds, gaming_day_of, venue_get
from cashgame.models import CashTable, Game, GameType, Hand
from cashier.models import AccountKind, Posting, ReceiptCounter
from cashier.services import account_for
from reports.history import cash, tourneys
from reports.history.room import Ids, Room
from reports.history.specs import specs
from reports.history.writer import CopyWriter, InsertWriter, timestamp_text
from tournaments.models import BlindStructure

FIVE_YEARS = 1826
SQLITE_MAX_HANDS = 300_000
HANDS_PER_TABLE_DAY = 290  # what the simulation gives on average (used for the SQLite estimate)
BIG_TABLES = [
    "cashier_entry",
    "cashier_posting",
    "cashier_cashiertransaction",
    "cashgame_hand",
    "cashgame_playersession",
    "cashgame_sessionevent",
    "cardroom_auditrecord",
]
# name, game, blinds, buy-ins, median pot after the flop (big blinds), seconds per hand
GAMES = [
    ("NLHE 1/2", GameType.NLHE, 100, 200, 10_000, 30_000, 11.0, 104),
    ("NLHE 2/5", GameType.NLHE, 200, 500, 20_000, 100_000, 10.0, 108),
    ("PLO 1/2", GameType.PLO, 100, 200, 10_000, 50_000, 16.0, 122),
    ("PLO 2/5", GameType.PLO, 200, 500, 30_000, 150_000, 14.0, 126),
    ("NLHE 5/10", GameType.NLHE, 500, 1_000, 50_000, 250_000, 9.0, 113),
    ("NLHE 10/25", GameType.NLHE, 1_000, 2_500, 150_000, 750_000, 8.0, 117),
]


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


def _home_game(number: int, tables: int) -> int:
    """The game a table usually runs (index into GAMES), spread like a real room's."""
    share = number / tables
    for limit, game in ((0.40, 0), (0.62, 1), (0.75, 2), (0.85, 3), (0.95, 4)):
        if share <= limit:
            return game
    return 5


def _staff() -> dict:
    users = get_user_model()

    def member(name: str, role: Role):
        user, created = users.objects.get_or_create(username=name)
        if created:
            user.set_unusable_password()
            user.save()
            user.groups.add(Group.objects.get(name=role.value))
        return user.pk, name

    return {
        "cashiers": [member(f"history-cashier-{n}", Role.CASHIER) for n in range(1, 5)],
        "floor": [member(f"history-floor-{n}", Role.FLOOR) for n in range(1, 4)],
        "manager": member("history-manager", Role.MANAGER),
    }


def _games() -> list[cash.GamePlan]:
    plans = []
    now = timezone.now()
    for name, game_type, small, big, minimum, maximum, pot_bb, seconds in GAMES:
        game, _created = Game.objects.get_or_create(
            name=name,
            defaults={
                "game_type": game_type,
                "small_blind_cents": small,
                "big_blind_cents": big,
                "min_buy_in_cents": minimum,
                "max_buy_in_cents": maximum,
                "created_at": now,
                "updated_at": now,
            },
        )
        plans.append(
            cash.GamePlan(
                game.pk,
                game.name,
                game.small_blind_cents,
                game.big_blind_cents,
                game.min_buy_in_cents,
                game.max_buy_in_cents or game.min_buy_in_cents * 3,
                game.rake_rate_bp,
                game.rake_cap_cents,
                game.rake_rounding_cents,
                game.jackpot_small_blind_cents,
                game.jackpot_big_blind_cents,
                game.jackpot_min_players,
                game.jackpot_drop_cents,
                game.jackpot_threshold_cents,
                pot_bb,
                seconds,
            )
        )
    return plans


# Used when the database holds no blind structure (the presets of the migrations were flushed):
# 20-minute levels, a break after every fourth.
FALLBACK_LEVELS = [
    ("break", 0, 0, 0, False, "", 600) if n % 5 == 4 else ("level", 25 * 2**n, 50 * 2**n, 0, False, "", 1_200)
    for n in range(20)
]


def _structures() -> dict[str, dict]:
    result = {"": {"id": None, "name": "", "levels": FALLBACK_LEVELS}}
    for structure in BlindStructure.objects.prefetch_related("levels"):
        result[structure.name] = {
            "id": structure.pk,
            "name": structure.name,
            "levels": [
                (
                    level.kind,
                    level.small_blind_chips,
                    level.big_blind_chips,
                    level.ante_chips,
                    level.big_blind_ante,
                    level.note,
                    level.minutes * 60,
                )
                for level in structure.levels.order_by("order")
            ],
        }
    return result


def _next_ids() -> dict[str, int]:
    start = {}
    for name, spec in specs().items():
        start[name] = (spec.model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
    return start


def _pg_conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    settings = connection.settings_dict
    return make_conninfo(
        dbname=settings["NAME"],
        user=settings.get("USER") or None,
        password=settings.get("PASSWORD") or None,
        host=settings.get("HOST") or None,
        port=settings.get("PORT") or None,
    )


def _secondary_indexes() -> list[tuple[str, str]]:
    """(name, definition) of the big tables' indexes that back no constraint."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT i.relname, pg_get_indexdef(i.oid)
            FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relname = ANY(%s) AND NOT x.indisprimary
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)
            ORDER BY t.relname, i.relname
            """,
            [BIG_TABLES],
        )
        return list(cursor.fetchall())


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
        staff = _staff()
        games = _games()
        top = CashTable.objects.aggregate(top=Max("number"))["top"] or 0
        tables = []
        for n in range(1, tables_count + 1):
            home = _home_game(n, tables_count)
            table = CashTable.objects.create(number=top + n, game_id=games[home].id)
            tables.append({"id": table.pk, "number": table.number, "home": home})
        accounts = {
            kind: account_for(kind=kind).pk
            for kind in (
                AccountKind.VAULT,
                AccountKind.CARD_CLEARING,
                AccountKind.CASH_VARIANCE,
                AccountKind.TOURNAMENT_FEES,
                AccountKind.RAKE_REVENUE,
                AccountKind.JACKPOT_FUND,
                AccountKind.OVERLAY_EXPENSE,
            )
        }
        for table in tables:
            accounts[("chips", table["id"])] = account_for(
                kind=AccountKind.CHIPS_IN_PLAY, owner=f"table:{table['id']}"
            ).pk
        structures = _structures()
    ids = Ids(_next_ids())
    # With the triggers on, the balance check looks a posting's entries up by posting: keep the
    # indexes, or each check reads the whole table.
    indexes = _secondary_indexes() if postgres and drop_indexes and replica else []
    if postgres:
        setup = ["SET LOCAL synchronous_commit = off", "SET LOCAL maintenance_work_mem = '1GB'"]
        if replica:
            setup.append("SET LOCAL session_replication_role = replica")
        setup += [f'DROP INDEX "{name}"' for name, _definition in indexes]
        writer = CopyWriter(dsn=_pg_conninfo(), setup=setup)
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
            _finish(writer, room=room, indexes=indexes, postgres=postgres, replica=replica)
        except BaseException:
            if postgres:
                writer.abort()
            raise
    result.seconds["indexes_and_finish"] = time.perf_counter() - clock
    result.rows = dict(writer.counts)
    result.stats = dict(room.stats)
    clock = time.perf_counter()
    _after_load(room, tables=tables, venue=venue)
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


def _finish(writer, *, room: Room, indexes, postgres: bool, replica: bool) -> None:
    """Rebuild the dropped indexes, record the IDs verified during the history (PLY-2), move the
    id sequences past the loaded rows, and commit."""
    late = sorted(room.verified_late.items())
    if not postgres:
        writer.close()
        with connection.cursor() as cursor:
            cursor.executemany(
                "UPDATE players_player SET id_verified_at = %s WHERE id = %s",
                [(timestamp_text(t), pid) for pid, t in late],
            )
        return
    # With the triggers on, their deferred checks (foreign keys, CAG-1 balance) must fire before
    # an index can be built in the same transaction.
    finish = [] if replica else [("SET CONSTRAINTS ALL IMMEDIATE", None)]
    finish += [(definition, None) for _name, definition in indexes]
    if late:
        finish.append(
            (
                "UPDATE players_player p SET id_verified_at = to_timestamp(v.t) "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS v(id, t) WHERE p.id = v.id",
                [[pid for pid, _t in late], [t for _pid, t in late]],
            )
        )
    for spec in specs().values():
        finish.append(
            (
                f"SELECT setval(pg_get_serial_sequence('\"{spec.table}\"', 'id'), "
                f'(SELECT COALESCE(MAX(id), 1) FROM "{spec.table}"))',
                None,
            )
        )
    writer.close(finish=finish)


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


def _after_load(room: Room, *, tables, venue) -> None:
    """The rows the live system keeps in step: tables' hand counters and state, the receipt
    counter."""
    with transaction.atomic():
        for table in tables:
            CashTable.objects.filter(pk=table["id"]).update(hands_dealt=room.hand_numbers[table["id"]])
        counter, _created = ReceiptCounter.objects.get_or_create(venue=venue)
        counter.last_number = max(counter.last_number, room.receipt)
        counter.save(update_fields=["last_number"])


def history_check(*, room: Room | None = None) -> dict[str, int]:
    """The ledger after the load: postings that do not balance (CAG-1; one query over every
    posting, since the triggers were off), the ledger's total, rake revenue against the hand
    log, and chips left on closed tables. Raises if any is wrong."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM (SELECT posting_id FROM cashier_entry GROUP BY posting_id "
            "HAVING SUM(amount_cents) <> 0) AS unbalanced"
        )
        unbalanced = cursor.fetchone()[0]
        cursor.execute(
            """
            SELECT
              (SELECT COALESCE(SUM(amount_cents), 0) FROM cashier_entry),
              (SELECT COALESCE(-SUM(e.amount_cents), 0) FROM cashier_entry e
                 JOIN cashier_account a ON a.id = e.account_id WHERE a.kind = 'rake_revenue'),
              (SELECT COALESCE(SUM(rake_cents), 0) FROM cashgame_hand),
              (SELECT COALESCE(SUM(e.amount_cents), 0) FROM cashier_entry e
                 JOIN cashier_account a ON a.id = e.account_id WHERE a.kind = 'chips_in_play'),
              (SELECT COUNT(*) FROM cashier_posting p WHERE NOT EXISTS
                 (SELECT 1 FROM cashier_entry e WHERE e.posting_id = p.id))
            """
        )
        total, rake_ledger, rake_hands, chips, empty = (int(value) for value in cursor.fetchone())
    checks = {
        "unbalanced_postings": unbalanced,
        "ledger_total": total,
        "rake_ledger_minus_hands": rake_ledger - rake_hands,
        "chips_left_on_tables": chips,
        "postings_without_entries": empty,
        "rake_cents": rake_ledger,
    }
    if unbalanced or total or rake_ledger != rake_hands or chips or empty:
        raise DomainError("history_inconsistent", _("The generated ledger does not reconcile: %s") % checks)
    return checks
