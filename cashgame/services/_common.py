"""What the cash-game services share: the table's row lock and PokerError -> DomainError.

Lock order, the same everywhere so two requests never deadlock: game (waiting lists), then
tables in primary-key order, then whatever the cashier's services lock (shift, player, account,
receipt counter). Every lock is FOR NO KEY UPDATE: inserting a row that references the table
takes a KEY SHARE lock on it, which a plain FOR UPDATE would block.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import gettext as _

from cardroom.errors import DomainError, NotFound
from cashgame.models import CashTable, Game
from poker.common import PokerError


def lock_table(table_id: int) -> CashTable:
    """The table row under a lock: every change of its sessions and hand log holds it."""
    try:
        return (
            CashTable.objects.select_for_update(no_key=True, of=("self",))
            .select_related("game")
            .get(pk=table_id)
        )
    except CashTable.DoesNotExist:
        raise NotFound("unknown_table", _("Unknown table.")) from None


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
