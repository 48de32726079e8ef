"""What the cash-game services share: the table's row lock and PokerError -> DomainError.

Lock order, the same everywhere so two requests never deadlock: game (waiting lists), then
tables in primary-key order, then whatever the cashier's services lock (shift, player, account,
receipt counter). Every lock is FOR NO KEY UPDATE: inserting a row that references the table
takes a KEY SHARE lock on it, which a plain FOR UPDATE would block.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from django.db import connection
from django.utils.translation import gettext as _

from cardroom.errors import DomainError, NotFound
from cardroom.rows import models_from_row, select_list, storable_pk
from cashgame.models import CashTable, Game, Hand
from poker.common import PokerError


@cache
def _locking_sql(with_hand: bool, vendor: str) -> str:
    """The table (or a hand and its table) locked, and the table's game, in one statement."""
    quote, table, game = connection.ops.quote_name, CashTable._meta.db_table, Game._meta.db_table
    columns = f"{select_list(CashTable, alias='t')}, {select_list(Game, alias='g')}"
    joins = f"{quote(table)} t JOIN {quote(game)} g ON g.id = t.game_id"
    locked, where = "t", "t.id = %s"
    if with_hand:
        columns = f"{select_list(Hand, alias='h')}, {columns}"
        joins = (
            f"{quote(Hand._meta.db_table)} h JOIN {quote(table)} t ON t.id = h.table_id "
            f"JOIN {quote(game)} g ON g.id = t.game_id"
        )
        locked, where = "h, t", "h.id = %s"
    lock = f" FOR NO KEY UPDATE OF {locked}" if connection.features.has_select_for_update_of else ""
    return f"SELECT {columns} FROM {joins} WHERE {where}{lock}"


def _fetch_locked(with_hand: bool, pk: int):
    # Built by hand because the dealer's every tap runs it, and the ORM spent longer compiling
    # this join than the database answering it.
    pk = storable_pk(Hand if with_hand else CashTable, pk)
    if pk is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_locking_sql(with_hand, connection.vendor), [pk])
        return cursor.fetchone()


def lock_table(table_id: int) -> CashTable:
    """The table row under a lock, with its game: every change of its sessions and hand log
    holds it."""
    row = _fetch_locked(False, table_id)
    if row is None:
        raise NotFound("unknown_table", _("Unknown table."))
    table, game = models_from_row(row, CashTable, Game)
    table.game = game
    return table


def lock_hand(hand_id: int) -> tuple[CashTable, Hand]:
    """The hand and its table, both locked, and the table's game, in one query. Locked rows
    are read in their latest committed version, so a hand ended or voided meanwhile is seen
    as such."""
    row = _fetch_locked(True, hand_id)
    if row is None:
        raise NotFound("unknown_hand", _("Unknown hand."))
    hand, table, game = models_from_row(row, Hand, CashTable, Game)
    table.game = game
    hand.table = table
    return table, hand


def lock_tables(*table_ids: int) -> dict[int, CashTable]:
    """Several tables locked in primary-key order (a change of table holds both)."""
    return {pk: lock_table(pk) for pk in sorted(set(table_ids))}


def lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update(no_key=True).get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("unknown_game", _("Unknown game.")) from None


@contextmanager
def poker_rules() -> Iterator[None]:
    """Re-raise the pure maths' PokerError as a DomainError with the same code and rule."""
    try:
        yield
    except PokerError as error:
        raise DomainError(error.code, error.message, rule=error.rule) from None


def require_open(table: CashTable) -> None:
    if not table.is_open:
        raise DomainError(
            "table_closed", _("%(table)s is closed; open it first.") % {"table": table}, status_code=409
        )
