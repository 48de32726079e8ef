"""Eliminations and payouts (TRN-10), the prize pool with its guarantee overlay (TRN-5), prizes
paid at the cashier, deals (ICM, chip chop) at the final table, and bounties (TRN-6).

- bounties: knock-out bounties won, split, given back, undone, lapsed and paid
- table: the payout table, finalising the prize pool and the places (TRN-5, TRN-10)
- eliminations: bust-outs, and undoing the last one (TRN-10)
- places: finishing places, given once the field is final (TRN-10)
- prizes: prizes paid at the cashier
- deals: deals at the final table (ICM, chip chop, the players' own split)
"""

from tournaments.services.payouts.bounties import (
    bounties_award_remaining,
    bounties_carried,
    bounty_pay,
    split_bounty,
)
from tournaments.services.payouts.deals import deal_accept
from tournaments.services.payouts.eliminations import bust_undo, entry_bust
from tournaments.services.payouts.prizes import prize_pay
from tournaments.services.payouts.table import (
    MAX_PLACES,
    entry_count,
    finalise_blocker,
    payout_percentages_for,
    payout_table_set,
    payouts_finalise,
    validate_percentages,
)

__all__ = [
    "MAX_PLACES",
    "bounties_award_remaining",
    "bounties_carried",
    "bounty_pay",
    "bust_undo",
    "deal_accept",
    "entry_bust",
    "entry_count",
    "finalise_blocker",
    "payout_percentages_for",
    "payout_table_set",
    "payouts_finalise",
    "prize_pay",
    "split_bounty",
    "validate_percentages",
]
