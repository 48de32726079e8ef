"""Player sessions at cash tables: seat, buy in, top up, change seat or table, seat states and
cash out (CSH-1..CSH-6).

Money goes through the cashier's services (cash_buy_in, cash_top_up, cash_out) with the table's
chips-in-play account "table:<id>" as the reference; this package decides whether the house
rules allow it. A money service is a cashier's operation (`money`); seating, moves and seat
states are the floor's (`seating`). Each service locks the table first (see
cashgame.services._common for the lock order), so a top-up and the start of a hand at the same
table are ordered.

The services are imported here, so `from cashgame.services.sessions import session_buy_in` works.
"""

from cashgame.services.sessions.corrections import transaction_reversal_check, transaction_reversed
from cashgame.services.sessions.money import (
    check_first_buy_in,
    half_min_buy_in,
    session_buy_in,
    session_cash_out,
    session_top_up,
)
from cashgame.services.sessions.seating import (
    DEALABLE,
    session_move,
    session_release,
    session_seat,
    session_stack_report,
    session_state_change,
)

__all__ = [
    "DEALABLE",
    "check_first_buy_in",
    "half_min_buy_in",
    "session_buy_in",
    "session_cash_out",
    "session_move",
    "session_release",
    "session_seat",
    "session_stack_report",
    "session_state_change",
    "session_top_up",
    "transaction_reversal_check",
    "transaction_reversed",
]
