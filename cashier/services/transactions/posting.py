"""One cashier transaction: a balanced posting with a gap-free receipt number (CAG-1, CAG-4),
the player's exclusion and AML checks (PLY-1, PLY-2) and an audit record."""

import re
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import require_key
from cardroom.money import format_eur, require_positive
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.selectors import gaming_day_of, venue_get
from cardroom.services import audit_record
from cashier.locks import account_for_update, receipt_counter_for_update, shift_for_update
from cashier.models import (
    PAY_IN_KINDS,
    Account,
    AccountKind,
    CashierTransaction,
    PaymentMethod,
    Shift,
    ShiftStatus,
    TransactionKind,
)
from cashier.selectors import account_held, player_cash_total_for_day
from cashier.services.ledger import Line, account_for, ledger_post
from cashier.signals import transaction_recorded
from players.locks import player_for_update
from players.models import Player

# What a ticket can pay (an entry) or be (a satellite's seat paid as a ticket), SER-1.
# A refund in "ticket" gives an entry paid with a ticket back to the ticket.
TICKET_KINDS = {
    TransactionKind.TOURNAMENT_BUY_IN,
    TransactionKind.RE_ENTRY,
    TransactionKind.PRIZE_PAYOUT,
    TransactionKind.REFUND,
}
REFERENCE_PATTERN = re.compile(r"^[a-z_]{1,20}:[0-9]{1,18}$")


def own_open_shift_for_update(*, actor, shift_id: int) -> Shift:
    """The shift under its lock, checked to be the actor's and open (CAG-3)."""
    try:
        shift = shift_for_update(shift_id)
    except Shift.DoesNotExist:
        raise DomainError("unknown_shift", _("Unknown shift."), rule="CAG-3", status_code=404) from None
    if shift.cashier_id != actor.pk:
        raise DomainError(
            "not_your_shift", _("This is another cashier's shift."), rule="CAG-3", status_code=403
        )
    if shift.status != ShiftStatus.OPEN:
        raise DomainError(
            "shift_closed", _("This shift is closed: open a new shift."), rule="CAG-3", status_code=409
        )
    return shift


def drawer_account(shift: Shift) -> Account:
    return Account(pk=shift.drawer_id)  # all a ledger line needs


def money_account(shift: Shift, method: str) -> Account:
    # Card payments never enter the drawer: they wait in clearing until the bank settles. A
    # ticket (SER-1) pays from the tickets-outstanding liability: nothing moves in the drawer.
    if method == PaymentMethod.TICKET:
        return account_for(kind=AccountKind.TICKETS_OUTSTANDING)
    return (
        drawer_account(shift) if method == PaymentMethod.CASH else account_for(kind=AccountKind.CARD_CLEARING)
    )


def require_available(*, kind: str, owner: str, amount_cents: int, what: str) -> None:
    """Refuse paying more than the account holds. Locks the account row until commit, so two
    desks paying from one pool at once cannot both pass the check."""
    account = account_for(kind=kind, owner=owner)
    account_for_update(account.pk)
    available = account_held(account=account)
    if amount_cents > available:
        raise DomainError(
            "insufficient_balance",
            _("%(what)s holds %(available)s; %(amount)s cannot be paid from it.")
            % {"what": what, "available": format_eur(available), "amount": format_eur(amount_cents)},
            rule="CAG-1",
        )


def _check_eligible(*, player: Player, kind: str, now: datetime) -> None:
    """PLY-1 once more under the player's lock. The game's service checked (and logged) it
    before its transaction began; this refuses an exclusion recorded in between."""
    if kind in PAY_IN_KINDS and player.is_excluded_on(timezone.localdate(now)):
        raise DomainError(
            "player_excluded",
            _("%(player)s is on the exclusion list and cannot buy in.") % {"player": player.full_name},
            rule="PLY-1",
            status_code=403,
        )


def _check_aml(*, player: Player, amount_cents: int, method: str, now: datetime) -> None:
    """PLY-2: cash movements reaching the threshold in a gaming day need a verified ID, counted
    in all the operator's venues and against this venue's threshold (VEN-1). The caller holds
    the player's lock (the register is shared), so two desks, in one venue or in two, cannot
    split a sum past the check."""
    if method != PaymentMethod.CASH or player.id_verified:
        return
    venue = venue_get()
    day = gaming_day_of(now, venue=venue)
    total = player_cash_total_for_day(player_id=player.pk, day=day, venue=venue) + amount_cents
    if total >= venue.aml_threshold_cents:
        raise DomainError(
            "aml_id_required",
            _(
                "%(player)s reaches %(total)s in cash today (threshold %(limit)s). Verify the ID "
                "document on the player card first, then repeat the transaction."
            )
            % {
                "player": player.full_name,
                "total": format_eur(total),
                "limit": format_eur(venue.aml_threshold_cents),
            },
            rule="PLY-2",
            status_code=403,
        )


def _insert_with_receipt(record: CashierTransaction) -> None:
    """Insert the record under the venue's next receipt number. The counter stays locked until
    commit and a rollback gives its number back, so numbers have no gaps (CAG-4); callers
    insert last, so every desk holds the counter as briefly as possible."""
    counter = receipt_counter_for_update(venue_get().pk)
    counter.last_number += 1
    counter.save(update_fields=["last_number"])
    record.receipt_number = counter.last_number
    record.save(force_insert=True)


def transaction_post(
    *,
    actor,
    shift: Shift,
    kind: str,
    player: Player | None,
    amount_cents: int,
    method: str,
    reference: str,
    idempotency_key: str,
    lines: Callable[[Shift], list[Line]],
    audit: dict | None = None,
    note: str = "",
    now: datetime | None = None,
) -> CashierTransaction:
    """Post one cashier transaction in the caller's transaction (a game's service's: run_once's),
    which a refusal rolls back. `lines(shift)` builds the posting's lines once the shift is
    locked (a drawer line needs the shift's drawer)."""
    require_role(actor, *CASHIER_ROLES)
    require_key(idempotency_key)
    require_positive(amount_cents)
    if method not in PaymentMethod.values:
        raise DomainError("invalid_method", _("Payment is by cash or card."))
    if method == PaymentMethod.TICKET and kind not in TICKET_KINDS:
        raise DomainError("invalid_method", _("A ticket pays a tournament entry only."), rule="SER-1")
    if reference and not REFERENCE_PATTERN.match(reference):
        raise DomainError("invalid_reference", _("Unknown reference: %s") % reference)
    now = now or timezone.now()
    # Every game's service calls this inside its own transaction (run_once's): a savepoint of
    # its own would cost two statements and undo nothing the caller does not undo already.
    with transaction.atomic(savepoint=False):
        shift = own_open_shift_for_update(actor=actor, shift_id=shift.pk)
        if player is not None:
            try:
                player = player_for_update(player.pk)
            except Player.DoesNotExist:
                raise DomainError("unknown_player", _("Unknown player."), status_code=404) from None
            _check_eligible(player=player, kind=kind, now=now)
            _check_aml(player=player, amount_cents=amount_cents, method=method, now=now)
        posting = ledger_post(
            lines=lines(shift), description=str(TransactionKind(kind).label), actor=actor, now=now
        )
        audit_record(
            actor=actor,
            action=f"cashier.{kind}",
            obj=posting,
            after={
                "amount_cents": amount_cents,
                "method": method,
                "player": player.pk if player else None,
                "reference": reference,
                **(audit or {}),
            },
            now=now,
        )
        record = CashierTransaction(
            kind=kind,
            shift=shift,
            cashier=actor,
            player=player,
            amount_cents=amount_cents,
            method=method,
            posting=posting,
            reference=reference,
            note=note[:200],
            idempotency_key=idempotency_key,
            created_at=now,
        )
        _insert_with_receipt(record)
        transaction_recorded.send(sender=CashierTransaction, record=record)
    return record
