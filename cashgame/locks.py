"""The cash games' row locks, as small plain-ORM functions (in the style of Saleor's
checkout/lock_objects.py). Services call these; nobody writes lock SQL by hand.

Lock order, the same everywhere so two requests never deadlock: game (waiting lists), then
tables in primary-key order, then the hand, then whatever the cashier's services lock (shift,
player, account, receipt counter). Every lock is FOR NO KEY UPDATE: inserting a row that
references the table (a hand, a session) takes a KEY SHARE lock on it, which a plain FOR UPDATE
would block. `of=` keeps the lock off the joined game row, which every table of the game shares.

Locked rows are read in their latest committed version, so a hand ended or voided meanwhile is
seen as such. SQLite has no row locks: there the functions are plain reads (the concurrency
tests run on PostgreSQL).
"""

from django.utils.translation import gettext as _

from cardroom.errors import NotFound
from cashgame.models import CashTable, Game, Hand


def _unknown_table() -> NotFound:
    return NotFound("unknown_table", _("Unknown table."))


def _unknown_hand() -> NotFound:
    return NotFound("unknown_hand", _("Unknown hand."))


def table_for_update(table_id: int) -> CashTable:
    """The table under its lock, with its game (not locked): every change of the table's
    sessions and hand log holds it."""
    try:
        return (
            CashTable.objects.select_for_update(of=("self",), no_key=True)
            .select_related("game")
            .get(pk=table_id)
        )
    except CashTable.DoesNotExist:
        raise _unknown_table() from None


def tables_for_update(*table_ids: int) -> dict[int, CashTable]:
    """Several tables locked in one query, in primary-key order (PostgreSQL locks the rows in
    the order the query returns them), by primary key. A change of table holds both."""
    wanted = sorted(set(table_ids))
    tables = {
        table.pk: table
        for table in CashTable.objects.select_for_update(of=("self",), no_key=True)
        .select_related("game")
        .filter(pk__in=wanted)
        .order_by("pk")
    }
    if len(tables) != len(wanted):
        raise _unknown_table()
    return tables


def hand_for_update(hand_id: int) -> Hand:
    """The hand and its table, both locked by one statement, with the table's game at
    `hand.table.game`. Ending or voiding a hand holds both: the hand so that it ends once, the
    table so that no top-up interleaves (CSH-3)."""
    try:
        return (
            Hand.objects.select_for_update(of=("self", "table"), no_key=True)
            .select_related("table__game")
            .get(pk=hand_id)
        )
    except Hand.DoesNotExist:
        raise _unknown_hand() from None


def hand_only_for_update(hand_id: int) -> Hand:
    """The hand row alone under its lock: the flop never meets a top-up, and ending or voiding
    the hand locks this row too, so neither reads it half-way."""
    try:
        return Hand.objects.select_for_update(of=("self",), no_key=True).get(pk=hand_id)
    except Hand.DoesNotExist:
        raise _unknown_hand() from None


def game_for_update(game_id: int) -> Game:
    """The game under its lock: the waiting lists (CSH-7) and the game's settings hold it."""
    try:
        return Game.objects.select_for_update(of=("self",), no_key=True).get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("unknown_game", _("Unknown game.")) from None
