"""What the cash-game services share: PokerError -> DomainError, the open-table check, and the
row locks under their old names.

The locks live in `cashgame.locks` (lock order and why they are FOR NO KEY UPDATE: see there).
`lock_table`, `lock_hand`, `lock_tables` and `lock_game` stay importable from here for the
services that still use these names.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cashgame.locks import game_for_update, hand_for_update, table_for_update, tables_for_update
from cashgame.models import CashTable, Game, Hand
from poker.common import PokerError


def lock_table(table_id: int) -> CashTable:
    """The table under its lock, with its game (`cashgame.locks.table_for_update`)."""
    return table_for_update(table_id)


def lock_hand(hand_id: int) -> tuple[CashTable, Hand]:
    """The hand and its table, both locked (`cashgame.locks.hand_for_update`)."""
    hand = hand_for_update(hand_id)
    return hand.table, hand


def lock_tables(*table_ids: int) -> dict[int, CashTable]:
    """Several tables locked in primary-key order (`cashgame.locks.tables_for_update`)."""
    return tables_for_update(*table_ids)


def lock_game(game_id: int) -> Game:
    return game_for_update(game_id)


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
