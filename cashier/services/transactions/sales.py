"""Money in at the desk: chips for a cash game, a tournament entry, re-entry, rebuy or add-on, and
an entry given back (CAG-1). When each is allowed is the rule of its game (CAG-6)."""

from datetime import datetime

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import require_positive
from cashier.models import AccountKind, CashierTransaction, PaymentMethod, Shift, TransactionKind
from cashier.services.ledger import Line, account_for
from cashier.services.transactions.posting import (
    money_account,
    require_available,
    transaction_post,
)
from players.models import Player


def _chips_sold(
    *, kind, actor, shift, player, amount_cents, method, reference, idempotency_key, now
) -> CashierTransaction:
    if not reference:
        raise DomainError("reference_required", _("Say which cash-game table the chips are for."))

    def lines(locked: Shift) -> list[Line]:
        chips = account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=reference)
        return [(money_account(locked, method), amount_cents), (chips, -amount_cents)]

    return transaction_post(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=amount_cents,
        method=method,
        reference=reference,
        idempotency_key=idempotency_key,
        lines=lines,
        now=now,
    )


def cash_buy_in(
    *,
    actor,
    shift: Shift,
    player: Player,
    amount_cents: int,
    method: str = PaymentMethod.CASH,
    reference: str,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Chips for cash: the drawer (or card clearing) against the table's chips in play."""
    return _chips_sold(
        kind=TransactionKind.CASH_BUY_IN,
        actor=actor,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
        method=method,
        reference=reference,
        idempotency_key=idempotency_key,
        now=now,
    )


def cash_top_up(
    *,
    actor,
    shift: Shift,
    player: Player,
    amount_cents: int,
    method: str = PaymentMethod.CASH,
    reference: str,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    return _chips_sold(
        kind=TransactionKind.TOP_UP,
        actor=actor,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
        method=method,
        reference=reference,
        idempotency_key=idempotency_key,
        now=now,
    )


TOURNAMENT_PAYMENT_KINDS = {
    TransactionKind.TOURNAMENT_BUY_IN,
    TransactionKind.RE_ENTRY,
    TransactionKind.REBUY,
    TransactionKind.ADD_ON,
}


def _tournament_lines(*, tournament_id: int, prize_cents: int, fee_cents: int, bounty_cents: int, sign: int):
    owner = f"tournament:{tournament_id}"
    return [
        (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), -sign * prize_cents),
        (account_for(kind=AccountKind.TOURNAMENT_FEES), -sign * fee_cents),
        (account_for(kind=AccountKind.BOUNTY_POOL, owner=owner), -sign * bounty_cents),
    ]


def _check_split(prize_cents: int, fee_cents: int, bounty_cents: int) -> int:
    if min(prize_cents, fee_cents, bounty_cents) < 0:
        raise DomainError("invalid_split", _("Prize, fee and bounty cannot be negative."), rule="TRN-6")
    return require_positive(prize_cents + fee_cents + bounty_cents)


def tournament_payment(
    *,
    actor,
    shift: Shift,
    player: Player,
    kind: str,
    tournament_id: int,
    prize_cents: int,
    fee_cents: int,
    bounty_cents: int = 0,
    method: str = PaymentMethod.CASH,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """A buy-in, re-entry, rebuy or add-on (TRN-6): the prize part to the tournament's prize
    pool, the fee to fee revenue, the bounty to the bounty pool. The split is the tournament's
    (never typed at the desk, CAG-6)."""
    if kind not in TOURNAMENT_PAYMENT_KINDS:
        raise DomainError("invalid_kind", _("Not a tournament payment: %s") % kind)
    total = _check_split(prize_cents, fee_cents, bounty_cents)

    def lines(locked: Shift) -> list[Line]:
        return [
            (money_account(locked, method), total),
            *_tournament_lines(
                tournament_id=tournament_id,
                prize_cents=prize_cents,
                fee_cents=fee_cents,
                bounty_cents=bounty_cents,
                sign=1,
            ),
        ]

    return transaction_post(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=total,
        method=method,
        reference=f"tournament:{tournament_id}",
        idempotency_key=idempotency_key,
        lines=lines,
        audit={"prize": prize_cents, "fee": fee_cents, "bounty": bounty_cents},
        now=now,
    )


def tournament_refund(
    *,
    actor,
    shift: Shift,
    player: Player,
    tournament_id: int,
    prize_cents: int,
    fee_cents: int,
    bounty_cents: int = 0,
    method: str = PaymentMethod.CASH,
    idempotency_key: str,
    note: str = "",
    now: datetime | None = None,
) -> CashierTransaction:
    """Give an entry's money back in full (TRN-2, CAG-6): prize part, fee and bounty, in cash or
    to the card."""
    total = _check_split(prize_cents, fee_cents, bounty_cents)
    owner = f"tournament:{tournament_id}"

    def lines(locked: Shift) -> list[Line]:
        require_available(
            kind=AccountKind.PRIZE_POOL, owner=owner, amount_cents=prize_cents, what=_("The prize pool")
        )
        return [
            (money_account(locked, method), -total),
            *_tournament_lines(
                tournament_id=tournament_id,
                prize_cents=prize_cents,
                fee_cents=fee_cents,
                bounty_cents=bounty_cents,
                sign=-1,
            ),
        ]

    return transaction_post(
        actor=actor,
        shift=shift,
        kind=TransactionKind.REFUND,
        player=player,
        amount_cents=total,
        method=method,
        reference=owner,
        idempotency_key=idempotency_key,
        lines=lines,
        audit={"prize": prize_cents, "fee": fee_cents, "bounty": bounty_cents},
        note=note,
        now=now,
    )
