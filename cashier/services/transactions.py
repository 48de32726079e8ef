"""Cashier transactions (CAG-2, CAG-4, PLY-1, PLY-2): each is one balanced posting with a
gap-free receipt number, made at most once per idempotency key.

Lock order, the same everywhere so two desks never deadlock: shift, player, paying account,
receipt counter. Every lock is FOR NO KEY UPDATE: inserting an entry takes a KEY SHARE lock on
its account (the foreign key), which a plain FOR UPDATE would block, turning two desks into a
deadlock.
"""

import hashlib
import json
import re
from collections.abc import Callable
from datetime import datetime
from functools import cache

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.money import format_eur, require_positive
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.rows import insert_row, lock_row, mark_inserted
from cardroom.selectors import gaming_day_of, venue_get
from cardroom.services import audit_record
from cashier.models import (
    PAY_IN_KINDS,
    Account,
    AccountKind,
    CashierTransaction,
    PaymentMethod,
    ReceiptCounter,
    Shift,
    TransactionKind,
)
from cashier.selectors import account_amount, player_cash_total_for_day
from cashier.services.ledger import Line, account_for, ledger_post
from cashier.services.shifts import lock_own_open_shift
from players.models import Player
from players.services import player_require_eligible

REFERENCE_PATTERN = re.compile(r"^[a-z_]{1,20}:[0-9]{1,18}$")
KEY_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{8,80}$")


def _fingerprint(fields: dict) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


def _replay(*, idempotency_key: str, fingerprint: str) -> CashierTransaction | None:
    """CAG-2: the transaction this key already made, or None. A different body is a 409."""
    existing = CashierTransaction.objects.filter(idempotency_key=idempotency_key).first()
    if existing is None:
        return None
    if existing.request_fingerprint != fingerprint:
        raise Conflict(
            "idempotency_key_reused",
            _(
                "This idempotency key was already used for a different request (receipt %(n)s). "
                "Use a new key for a new transaction."
            )
            % {"n": existing.receipt_number},
            rule="CAG-2",
        )
    existing.replayed = True
    return existing


def _insert_with_receipt(record: CashierTransaction) -> None:
    """Insert the record under the venue's next receipt number.

    The counter's UPDATE keeps its row locked until commit and a rollback returns the number,
    so numbers have no gaps (CAG-4). Every desk waits on that row in turn, so callers insert
    last, just before commit, to hold it as briefly as possible; on PostgreSQL the increment
    and the insert are one statement, one round trip.
    """
    venue = venue_get()
    if connection.vendor == "postgresql":
        fields, sql = _receipt_insert_sql()
        values = [field.get_db_prep_save(getattr(record, field.attname), connection) for field in fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, [venue.pk, *values])
            row = cursor.fetchone()
        if row is not None:
            record.receipt_number = row[1]
            mark_inserted(record, row[0])
            return
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {ReceiptCounter._meta.db_table} SET last_number = last_number + 1 "
                "WHERE venue_id = %s RETURNING last_number",
                [venue.pk],
            )
            row = cursor.fetchone()
        if row is not None:
            record.receipt_number = row[0]
            insert_row(record)
            return
    ReceiptCounter.objects.get_or_create(venue=venue)  # the venue's first receipt
    _insert_with_receipt(record)


@cache
def _receipt_insert_sql() -> tuple[list, str]:
    """The columns written from the record, and the statement that numbers and inserts it."""
    meta = CashierTransaction._meta
    fields = [field for field in meta.concrete_fields if field.name not in ("id", "receipt_number")]
    return fields, (
        f"WITH counter AS (UPDATE {ReceiptCounter._meta.db_table} SET last_number = last_number + 1 "
        f"WHERE venue_id = %s RETURNING last_number) INSERT INTO {meta.db_table} "
        f"(receipt_number, {', '.join(field.column for field in fields)}) "
        f"SELECT counter.last_number, {', '.join(['%s'] * len(fields))} FROM counter "
        "RETURNING id, receipt_number"
    )


def _check_aml(*, player: Player, amount_cents: int, method: str, now: datetime) -> None:
    """PLY-2: cash movements reaching the threshold in a gaming day need a verified ID.

    Caller holds the lock on the player row, so two desks cannot split a sum past the check.
    """
    if method != PaymentMethod.CASH or player.id_verified:
        return
    venue = venue_get()
    total = player_cash_total_for_day(player_id=player.pk, day=gaming_day_of(now, venue=venue)) + amount_cents
    if total >= venue.aml_threshold_cents:
        raise DomainError(
            "aml_id_required",
            _(
                "%(player)s reaches %(total)s in cash today (threshold %(limit)s). Verify his ID document "
                "on the player card first, then repeat the transaction."
            )
            % {
                "player": player.full_name,
                "total": format_eur(total),
                "limit": format_eur(venue.aml_threshold_cents),
            },
            rule="PLY-2",
            status_code=403,
        )


class _Excluded(Exception):
    def __init__(self, player: Player):
        self.player = player


# What a money request reads of the player: his name, ID check (PLY-2) and exclusion (PLY-1).
PLAYER_FIELDS = (
    "first_name",
    "last_name",
    "id_verified_at",
    "exclusion_status",
    "excluded_from",
    "excluded_until",
)


def _lock_player(*, player_id: int) -> Player:
    player = lock_row(Player, player_id, fields=PLAYER_FIELDS)
    if player is None:
        raise DomainError("unknown_player", _("Unknown player."), status_code=404)
    return player


def _transact(
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
    extra: dict,
    note: str = "",
    now: datetime | None,
) -> CashierTransaction:
    require_role(actor, *CASHIER_ROLES)
    if not KEY_PATTERN.match(idempotency_key or ""):
        raise DomainError(
            "idempotency_key_required",
            _("Every money request needs an idempotency key (8-80 letters, digits, ._:-)."),
            rule="CAG-2",
        )
    fingerprint = _fingerprint(
        {
            "kind": kind,
            "shift": shift.pk,
            "player": player.pk if player else None,
            "amount": amount_cents,
            "method": method,
            "reference": reference,
            **extra,
        }
    )
    # CAG-2 without a look-up before every transaction: a repeated key is caught by the unique
    # key of the final insert (which also settles two racing requests), and any refusal first
    # checks whether the key already had its effect, so a retry gets the first result even
    # after the shift closed or the AML sum moved on.
    now = now or timezone.now()
    try:
        return _transact_once(
            actor=actor,
            shift=shift,
            kind=kind,
            player=player,
            amount_cents=amount_cents,
            method=method,
            reference=reference,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
            lines=lines,
            extra=extra,
            note=note,
            now=now,
        )
    except (DomainError, IntegrityError, _Excluded) as refused:
        replayed = _replay(idempotency_key=idempotency_key, fingerprint=fingerprint)
        if replayed is not None:
            return replayed
        if isinstance(refused, _Excluded):
            # The refusal record must survive the refused request (PLY-1): written outside it.
            player_require_eligible(actor=actor, player=refused.player, purpose=_("buy in"), now=now)
            raise AssertionError("an excluded player passed the eligibility check") from None
        raise


def _transact_once(
    *,
    actor,
    shift: Shift,
    kind: str,
    player: Player | None,
    amount_cents: int,
    method: str,
    reference: str,
    idempotency_key: str,
    fingerprint: str,
    lines: Callable[[Shift], list[Line]],
    extra: dict,
    note: str,
    now: datetime,
) -> CashierTransaction:
    require_positive(amount_cents)
    if method not in PaymentMethod.values:
        raise DomainError("invalid_method", _("Payment is by cash or card."))
    if reference and not REFERENCE_PATTERN.match(reference):
        raise DomainError("invalid_reference", _("Unknown reference: %s") % reference)
    with transaction.atomic():
        shift = lock_own_open_shift(actor=actor, shift=shift)
        if player is not None:
            player = _lock_player(player_id=player.pk)
            if kind in PAY_IN_KINDS and player.is_excluded_on(timezone.localdate(now)):
                raise _Excluded(player)  # nothing written yet; _transact logs it after the rollback
            _check_aml(player=player, amount_cents=amount_cents, method=method, now=now)
        posting = ledger_post(
            lines=lines(shift),
            description=str(TransactionKind(kind).label),
            actor=actor,
            now=now,
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
                "idempotency_key": idempotency_key,
                **extra,
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
            request_fingerprint=fingerprint,
            created_at=now,
        )
        # Last, so every desk waits on the venue's receipt counter for one insert only.
        _insert_with_receipt(record)
    record.replayed = False
    return record


def _drawer(shift: Shift) -> Account:
    return Account(pk=shift.drawer_id)  # all a ledger line needs


def _money_account(shift: Shift, method: str) -> Account:
    # Card payments never enter the drawer: they wait in clearing until the bank settles.
    return _drawer(shift) if method == PaymentMethod.CASH else account_for(kind=AccountKind.CARD_CLEARING)


def _require_available(*, kind: str, owner: str, amount_cents: int, what: str) -> None:
    """Refuse paying more than the account holds. Locks the account row until commit, so two
    desks paying from one pool at once cannot both pass the check."""
    Account.objects.select_for_update(no_key=True).filter(pk=account_for(kind=kind, owner=owner).pk).first()
    available = account_amount(kind=kind, owner=owner)
    if amount_cents > available:
        raise DomainError(
            "insufficient_balance",
            _("%(what)s holds %(available)s; %(amount)s cannot be paid from it.")
            % {"what": what, "available": format_eur(available), "amount": format_eur(amount_cents)},
            rule="CAG-1",
        )


def _chips_transaction(*, kind, actor, shift, player, amount_cents, method, reference, idempotency_key, now):
    if not reference:
        raise DomainError("reference_required", _("Say which cash-game table the chips are for."))

    def lines(locked: Shift) -> list[Line]:
        chips = account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=reference)
        return [(_money_account(locked, method), amount_cents), (chips, -amount_cents)]

    return _transact(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=amount_cents,
        method=method,
        reference=reference,
        idempotency_key=idempotency_key,
        lines=lines,
        extra={},
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
    """Chips for cash: the drawer (or card clearing) against the table's chips in play.
    When a buy-in is allowed is the cash game's rule (CSH-1); this only moves the money."""
    return _chips_transaction(
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
    return _chips_transaction(
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
        _require_available(kind=source_kind, owner=source_owner, amount_cents=amount_cents, what=source_name)
        return [
            (account_for(kind=source_kind, owner=source_owner), amount_cents),
            (_drawer(locked), -amount_cents),
        ]

    return _transact(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=amount_cents,
        method=PaymentMethod.CASH,
        reference=reference,
        idempotency_key=idempotency_key,
        lines=lines,
        extra={},
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
    pool, the fee to fee revenue, the bounty to the bounty pool."""
    if kind not in TOURNAMENT_PAYMENT_KINDS:
        raise DomainError("invalid_kind", _("Not a tournament payment: %s") % kind)
    total = _check_split(prize_cents, fee_cents, bounty_cents)

    def lines(locked: Shift) -> list[Line]:
        return [
            (_money_account(locked, method), total),
            *_tournament_lines(
                tournament_id=tournament_id,
                prize_cents=prize_cents,
                fee_cents=fee_cents,
                bounty_cents=bounty_cents,
                sign=1,
            ),
        ]

    return _transact(
        actor=actor,
        shift=shift,
        kind=kind,
        player=player,
        amount_cents=total,
        method=method,
        reference=f"tournament:{tournament_id}",
        idempotency_key=idempotency_key,
        lines=lines,
        extra={"prize": prize_cents, "fee": fee_cents, "bounty": bounty_cents},
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
    """Give an entry back in full (TRN-2): prize part, fee and bounty, in cash or to the card."""
    total = _check_split(prize_cents, fee_cents, bounty_cents)
    owner = f"tournament:{tournament_id}"

    def lines(locked: Shift) -> list[Line]:
        _require_available(
            kind=AccountKind.PRIZE_POOL, owner=owner, amount_cents=prize_cents, what=_("The prize pool")
        )
        return [
            (_money_account(locked, method), -total),
            *_tournament_lines(
                tournament_id=tournament_id,
                prize_cents=prize_cents,
                fee_cents=fee_cents,
                bounty_cents=bounty_cents,
                sign=-1,
            ),
        ]

    return _transact(
        actor=actor,
        shift=shift,
        kind=TransactionKind.REFUND,
        player=player,
        amount_cents=total,
        method=method,
        reference=owner,
        idempotency_key=idempotency_key,
        lines=lines,
        extra={"prize": prize_cents, "fee": fee_cents, "bounty": bounty_cents},
        note=note,
        now=now,
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
    owner = f"tournament:{tournament_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.PRIZE_PAYOUT,
        source_kind=AccountKind.PRIZE_POOL,
        source_owner=owner,
        source_name=_("The prize pool"),
        amount_cents=amount_cents,
        reference=owner,
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
    """Pay bounties a player won in cash from the tournament's bounty pool (TRN-6). Which
    knock-outs the money is for is the tournament's record (tournaments' bounty_pay)."""
    owner = f"tournament:{tournament_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.BOUNTY_PAYOUT,
        source_kind=AccountKind.BOUNTY_POOL,
        source_owner=owner,
        source_name=_("The bounty pool"),
        amount_cents=amount_cents,
        reference=owner,
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
    owner = f"tournament:{tournament_id}"
    return _cash_payout(
        actor=actor,
        shift=shift,
        player=player,
        kind=TransactionKind.REFUND,
        source_kind=AccountKind.REFUNDS_PAYABLE,
        source_owner=owner,
        source_name=_("Refunds payable of the tournament"),
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
