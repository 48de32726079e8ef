"""One entry point for the desk page and the API: a parsed request to the service of its kind."""

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cashier.models import CashierTransaction, Shift, TransactionKind
from cashier.services.transactions import (
    cash_buy_in,
    cash_out,
    cash_top_up,
    jackpot_payout,
    prize_payout,
    refund_payout,
    tournament_payment,
    tournament_refund,
)
from players.models import Player


def transaction_create(*, actor, data: dict, idempotency_key: str) -> CashierTransaction:
    """Route one parsed transaction request (API or desk page) to the service of its kind."""
    # pk-only instances: the service locks and loads both rows itself (404 when missing), so the
    # request reads neither twice.
    shift, player = Shift(pk=data["shift"]), Player(pk=data["player"])
    kind = data["kind"]
    if kind == TransactionKind.BOUNTY_PAYOUT:
        # A bounty is paid against the knock-outs that won it, so the pool's record stays exact.
        raise DomainError(
            "bounty_from_tournament_page",
            _("Pay bounties from the tournament's cashier page, where each is linked to its knock-out."),
            rule="TRN-6",
        )
    common = {"actor": actor, "shift": shift, "player": player, "idempotency_key": idempotency_key}
    tournament_kinds = {
        TransactionKind.TOURNAMENT_BUY_IN,
        TransactionKind.RE_ENTRY,
        TransactionKind.REBUY,
        TransactionKind.ADD_ON,
        TransactionKind.REFUND,
        TransactionKind.PRIZE_PAYOUT,
    }
    if kind in tournament_kinds and not data.get("tournament"):
        raise DomainError("tournament_required", _("Say which tournament this is for."))
    amount = data.get("amount")
    if (
        kind
        in (
            TransactionKind.CASH_BUY_IN,
            TransactionKind.TOP_UP,
            TransactionKind.CASH_OUT,
            TransactionKind.PRIZE_PAYOUT,
            TransactionKind.JACKPOT_PAYOUT,
        )
        and amount is None
    ):
        raise DomainError("amount_required", _("Enter the amount."))
    split = {
        "prize_cents": data.get("prize") or 0,
        "fee_cents": data.get("fee") or 0,
        "bounty_cents": data.get("bounty") or 0,
    }
    if kind == TransactionKind.CASH_BUY_IN:
        return cash_buy_in(**common, amount_cents=amount, method=data["method"], reference=data["reference"])
    if kind == TransactionKind.TOP_UP:
        return cash_top_up(**common, amount_cents=amount, method=data["method"], reference=data["reference"])
    if kind == TransactionKind.CASH_OUT:
        return cash_out(**common, amount_cents=amount, reference=data["reference"])
    if kind == TransactionKind.REFUND and amount is not None:
        # A cancelled tournament's refund, already owed in refunds payable (TRN-2).
        return refund_payout(**common, tournament_id=data["tournament"], amount_cents=amount)
    if kind == TransactionKind.REFUND:
        # An entry given back before the start: prize part, fee and bounty as split.
        return tournament_refund(
            **common,
            tournament_id=data["tournament"],
            method=data["method"],
            note=data.get("note", ""),
            **split,
        )
    if kind == TransactionKind.PRIZE_PAYOUT:
        return prize_payout(**common, tournament_id=data["tournament"], amount_cents=amount)
    if kind == TransactionKind.JACKPOT_PAYOUT:
        return jackpot_payout(**common, amount_cents=amount, reference=data["reference"])
    return tournament_payment(
        **common, kind=kind, tournament_id=data["tournament"], method=data["method"], **split
    )
