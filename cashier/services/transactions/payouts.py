"""Money out of the drawer: a cash-out, a prize, bounties, a cancelled tournament's refund, a
jackpot share; never more than the account it comes from holds (CAG-1)."""

from datetime import datetime

from django.utils.translation import gettext as _

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


def _tournament_payout(*, kind, source_kind, source_name, tournament_id, **common) -> CashierTransaction:
    owner = f"tournament:{tournament_id}"
    return _cash_payout(
        kind=kind,
        source_kind=source_kind,
        source_owner=owner,
        source_name=source_name,
        reference=owner,
        **common,
    )


def prize_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    tournament_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay a prize in cash from the tournament's prize pool (TRN-10)."""
    return _tournament_payout(
        kind=TransactionKind.PRIZE_PAYOUT,
        source_kind=AccountKind.PRIZE_POOL,
        source_name=_("The prize pool"),
        tournament_id=tournament_id,
        actor=actor,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
        idempotency_key=idempotency_key,
        now=now,
    )


def bounty_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    tournament_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay bounties a player won in cash from the tournament's bounty pool (TRN-6)."""
    return _tournament_payout(
        kind=TransactionKind.BOUNTY_PAYOUT,
        source_kind=AccountKind.BOUNTY_POOL,
        source_name=_("The bounty pool"),
        tournament_id=tournament_id,
        actor=actor,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
        idempotency_key=idempotency_key,
        now=now,
    )


def refund_payout(
    *,
    actor,
    shift: Shift,
    player: Player,
    tournament_id: int,
    amount_cents: int,
    idempotency_key: str,
    now: datetime | None = None,
) -> CashierTransaction:
    """Pay out a refund that a cancelled tournament owes (TRN-2): the cancellation moved every
    entry's money to refunds payable; the player collects it here, in cash."""
    return _tournament_payout(
        kind=TransactionKind.REFUND,
        source_kind=AccountKind.REFUNDS_PAYABLE,
        source_name=_("Refunds payable of the tournament"),
        tournament_id=tournament_id,
        actor=actor,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
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
