"""Money out of the drawer: a cash-out, a prize, bounties, a cancelled tournament's refund, a
jackpot share; never more than the account it comes from holds (CAG-1)."""

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.errors import DomainError
from cashier.models import AccountKind, CashierTransaction, PaymentMethod, Shift, TransactionKind
from cashier.services.ledger import Line, account_for
from cashier.services.transactions.posting import (
    drawer_account,
    require_available,
    transaction_post,
)
from players.models import Player


def _cash_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    kind: str,
    source_kind: str,
    source_owner: str,
    source_name: str,
    amount_cents: int,
    reference: str,
    idempotency_key: str,
    now: datetime | None,
) -> CashierTransaction:
    """Cash out of the drawer against one account (chips in play, a prize pool, the jackpot
    fund, refunds payable), never more than that account holds."""

    def lines(locked: Shift) -> list[Line]:
        require_available(kind=source_kind, owner=source_owner, amount_cents=amount_cents, what=source_name)
        return [
            (account_for(kind=source_kind, owner=source_owner), amount_cents),
            (drawer_account(locked), -amount_cents),
        ]

    return transaction_post(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=amount_cents,
        method=PaymentMethod.CASH,
        reference=reference,
        idempotency_key=idempotency_key,
        lines=lines,
        now=now,
    )


def cash_out(
    *,
    actor,
    shift: Shift,
    player: Player,
    amount_cents: int,
    reference: str,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Chips back to cash when the player leaves (CSH-2); never more than the table's chips in play."""
    if not reference:
        raise DomainError("reference_required", _("Say which cash-game table the chips come from."))
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.CASH_OUT,
        source_kind=AccountKind.CHIPS_IN_PLAY,
        source_owner=reference,
        source_name=_("Chips in play of %s") % reference,
        amount_cents=amount_cents,
        reference=reference,
        idempotency_key=idempotency_key,
        now=now,
    )


# What a tournament pays a player from, by the kind of payout: the account, and its name in a
# refusal when it holds too little.
TOURNAMENT_SOURCES = {
    TransactionKind.PRIZE_PAYOUT: (AccountKind.PRIZE_POOL, gettext_lazy("The prize pool")),
    TransactionKind.BOUNTY_PAYOUT: (AccountKind.BOUNTY_POOL, gettext_lazy("The bounty pool")),
    TransactionKind.REFUND: (AccountKind.REFUNDS_PAYABLE, gettext_lazy("Refunds payable of the tournament")),
}


def tournament_payout(
    *,
    actor,
    shift: Shift,
    kind: str,
    player: Player,
    tournament_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay a player in cash what a tournament owes him, from the tournament's own account: a
    prize from its prize pool (TRN-10), bounties won from its bounty pool (TRN-6), or a cancelled
    tournament's refund from its refunds payable (TRN-2), where the cancellation moved every
    entry's money."""
    if kind not in TOURNAMENT_SOURCES:
        raise DomainError("unknown_kind", _("Unknown tournament payout: %s") % kind)
    source_kind, source_name = TOURNAMENT_SOURCES[kind]
    owner = f"tournament:{tournament_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=kind,
        source_kind=source_kind,
        source_owner=owner,
        source_name=source_name,
        amount_cents=amount_cents,
        reference=owner,
        idempotency_key=idempotency_key,
        now=now,
    )


def jackpot_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    amount_cents: int,
    idempotency_key: str,
    reference: str = "",
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay a jackpot share in cash from the jackpot fund (JKP-3)."""
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.JACKPOT_PAYOUT,
        source_kind=AccountKind.JACKPOT_FUND,
        source_owner="",
        source_name=_("The jackpot fund"),
        amount_cents=amount_cents,
        reference=reference,
        idempotency_key=idempotency_key,
        now=now,
    )


def high_hand_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    promotion_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay a high-hand prize in cash from the promotion's fund (LOY-2)."""
    owner = f"promotion:{promotion_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.HIGH_HAND_PAYOUT,
        source_kind=AccountKind.PROMOTION_FUND,
        source_owner=owner,
        source_name=_("The high-hand promotion's fund"),
        amount_cents=amount_cents,
        reference=owner,
        idempotency_key=idempotency_key,
        now=now,
    )


def ticket_prize_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    tournament_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """A satellite's seat paid as a ticket (SER-1): the seat's worth moves from the satellite's
    prize pool to the tickets-outstanding liability; no cash leaves the drawer. The receipt
    says "ticket"."""
    owner = f"tournament:{tournament_id}"

    def lines(locked: Shift) -> list[Line]:
        require_available(
            kind=AccountKind.PRIZE_POOL, owner=owner, amount_cents=amount_cents, what=_("The prize pool")
        )
        return [
            (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), amount_cents),
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), -amount_cents),
        ]

    return transaction_post(
        actor=actor,
        shift=shift,
        kind=TransactionKind.PRIZE_PAYOUT,
        player=player,
        amount_cents=amount_cents,
        method=PaymentMethod.TICKET,
        reference=owner,
        idempotency_key=idempotency_key,
        lines=lines,
        now=now,
    )


def ticket_refund_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    ticket_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay a refunded ticket in cash from its refunds payable (SER-1), where the manager's refund
    moved it from the tickets-outstanding liability."""
    owner = f"ticket:{ticket_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.REFUND,
        source_kind=AccountKind.REFUNDS_PAYABLE,
        source_owner=owner,
        source_name=_("Refunds payable of the ticket"),
        amount_cents=amount_cents,
        reference=owner,
        idempotency_key=idempotency_key,
        now=now,
    )
