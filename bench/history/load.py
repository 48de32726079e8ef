"""The database side of a load: the PostgreSQL connection the COPY writer opens, the big tables'
secondary indexes (dropped for the load and rebuilt after it), the statements that finish it, the
rows the live system keeps in step, and the check of the loaded ledger."""

from django.db import connection, transaction
from django.utils.translation import gettext as _

from bench.history.room import Room
from bench.history.specs import specs
from bench.history.writer import timestamp_text
from cardroom.errors import DomainError
from cashgame.models import CashTable
from cashier.models import ReceiptCounter

BIG_TABLES = [
    "cashier_entry",
    "cashier_posting",
    "cashier_cashiertransaction",
    "cashgame_hand",
    "cashgame_playersession",
    "cashgame_sessionevent",
    "cardroom_auditrecord",
]


def pg_conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    settings = connection.settings_dict
    return make_conninfo(
        dbname=settings["NAME"],
        user=settings.get("USER") or None,
        password=settings.get("PASSWORD") or None,
        host=settings.get("HOST") or None,
        port=settings.get("PORT") or None,
    )


def secondary_indexes() -> list[tuple[str, str]]:
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


def load_finish(writer, *, room: Room, indexes, postgres: bool, replica: bool) -> None:
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
                f"SELECT setval(pg_get_serial_sequence('\"{spec.table}\"', 'id'), "  # noqa: S608 - table name from model meta, no input
                f'(SELECT COALESCE(MAX(id), 1) FROM "{spec.table}"))',
                None,
            )
        )
    writer.close(finish=finish)


def after_load(room: Room, *, tables, venue) -> None:
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
