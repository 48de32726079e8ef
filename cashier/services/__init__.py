"""Every write of the cashier: the ledger, shifts, transactions and corrections."""

from cashier.services.days import (
    ended_days_not_in,
    ledger_day_close,
    ledger_day_reopen,
    ledger_days_close_missing,
)
from cashier.services.ledger import account_for, ledger_post
from cashier.services.reversals import reversal_approve, reversal_reject, reversal_request
from cashier.services.shifts import shift_close, shift_handover, shift_open
from cashier.services.transactions import (
    cash_buy_in,
    cash_out,
    cash_top_up,
    high_hand_payout,
    jackpot_payout,
    ticket_prize_payout,
    ticket_refund_payout,
    tournament_payment,
    tournament_payout,
    tournament_refund,
    transaction_post,
)

__all__ = [
    "account_for",
    "cash_buy_in",
    "cash_out",
    "cash_top_up",
    "ended_days_not_in",
    "high_hand_payout",
    "jackpot_payout",
    "ledger_day_close",
    "ledger_day_reopen",
    "ledger_days_close_missing",
    "ledger_post",
    "reversal_approve",
    "reversal_reject",
    "reversal_request",
    "shift_close",
    "shift_handover",
    "shift_open",
    "ticket_prize_payout",
    "ticket_refund_payout",
    "tournament_payment",
    "tournament_payout",
    "tournament_refund",
    "transaction_post",
]
