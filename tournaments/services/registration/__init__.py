"""Registration at the cashier (TRN-6, PLY-1), presence, rebuys and add-ons, the start with its
minimum field (TRN-1), postponing, and the refunds of a cancelled tournament (TRN-2).

Lock order, the same everywhere: the tournament row, then (inside the cashier's service) the
shift, the player, the paying account and the receipt counter; entries are locked after the
tournament, in primary-key order.
"""

from tournaments.refusals import registered_count
from tournaments.services.registration.chips import entry_add_on, entry_rebuy
from tournaments.services.registration.entries import entry_mark_present, entry_register
from tournaments.services.registration.refunds import refund_pay, refunds_owed
from tournaments.services.registration.rules import RULE_FIELDS, tournament_rules_update
from tournaments.services.registration.start import tournament_postpone, tournament_start
from tournaments.services.registration.withdrawals import (
    entry_has_played,
    entry_withdraw,
    transaction_reversal_check,
    transaction_reversed,
)

__all__ = [
    "RULE_FIELDS",
    "entry_add_on",
    "entry_has_played",
    "entry_mark_present",
    "entry_rebuy",
    "entry_register",
    "entry_withdraw",
    "refund_pay",
    "refunds_owed",
    "registered_count",
    "tournament_postpone",
    "tournament_rules_update",
    "tournament_start",
    "transaction_reversal_check",
    "transaction_reversed",
]
