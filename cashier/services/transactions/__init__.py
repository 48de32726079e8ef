"""Cashier transactions: the money half of every game's money movement (CAG-1, CAG-4, PLY-1,
PLY-2). They are called by the game's services (cashgame, tournaments), which check the game's
rules, hold the game's locks and carry the request's key (cardroom.idempotency, CAG-2); the
cashier's own pages and API reach them only through those services (CAG-6)."""

from cashier.services.transactions.payouts import (
    cash_out,
    high_hand_payout,
    jackpot_payout,
    ticket_prize_payout,
    ticket_refund_payout,
    tournament_payout,
)
from cashier.services.transactions.posting import transaction_post
from cashier.services.transactions.sales import (
    cash_buy_in,
    cash_top_up,
    tournament_payment,
    tournament_refund,
)

__all__ = [
    "cash_buy_in",
    "cash_out",
    "cash_top_up",
    "high_hand_payout",
    "jackpot_payout",
    "ticket_prize_payout",
    "ticket_refund_payout",
    "tournament_payment",
    "tournament_payout",
    "tournament_refund",
    "transaction_post",
]
