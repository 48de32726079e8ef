"""Rebuys and add-ons at the cashier (TRN-6): chips bought by a live entry while its level
allows, each posted through the cashier ledger with a receipt."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashier.models import PaymentMethod, Shift, TransactionKind
from cashier.services import tournament_payment
from players.services import player_require_eligible
from tournaments.models import Entry, EntryPayment, EntryPaymentKind, EntryStatus, TournamentStatus
from tournaments.services import clock
from tournaments.services._common import lock_entry, rules_for


def _buy_more(
    *,
    actor,
    entry: Entry,
    shift: Shift,
    method: str,
    idempotency_key: str,
    kind: str,
    now: datetime | None,
) -> Entry:
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def before() -> None:
        player_require_eligible(actor=actor, player=entry.player, purpose=_("buy chips"), now=now)
        # A level already due rises first, in its own transaction, so rebuys and add-ons close
        # on time (TRN-6) and stay closed even when this request is refused.
        clock.clock_advance_due(tournament_id=entry.tournament_id, now=now)

    def buy() -> Entry:
        tournament, locked = lock_entry(entry)
        clock.advance_locked(tournament, now=now)
        rules = rules_for(tournament)
        if locked.status != EntryStatus.ACTIVE:
            raise DomainError(
                "entry_not_active",
                _("Only a player still in the tournament can buy chips."),
                rule="TRN-6",
                status_code=409,
            )
        if not tournament.clock_started and tournament.status != TournamentStatus.REGISTERING:
            raise DomainError(
                "tournament_not_running", _("The tournament is not running."), rule="TRN-6", status_code=409
            )
        if kind == EntryPaymentKind.REBUY:
            allowed = rules.rebuy_level > 0 and rules.rebuys_closed_at is None
            if not allowed:
                raise DomainError(
                    "rebuys_closed",
                    _("Rebuys are not (or no longer) allowed."),
                    rule="TRN-6",
                    status_code=409,
                )
            if locked.rebuys >= rules.max_rebuys:
                raise DomainError(
                    "rebuy_limit",
                    _("This entry has used all %d rebuys.") % rules.max_rebuys,
                    rule="TRN-6",
                    status_code=409,
                )
            prize, fee, chips = rules.rebuy_prize_cents, rules.rebuy_fee_cents, rules.rebuy_chips
            payment_kind = TransactionKind.REBUY
        else:
            allowed = rules.add_on_level > 0 and rules.add_ons_closed_at is None
            if not allowed:
                raise DomainError(
                    "add_ons_closed",
                    _("Add-ons are not (or no longer) allowed."),
                    rule="TRN-6",
                    status_code=409,
                )
            if locked.add_ons >= 1:
                raise DomainError(
                    "add_on_limit", _("This entry already took its add-on."), rule="TRN-6", status_code=409
                )
            prize, fee, chips = rules.add_on_prize_cents, rules.add_on_fee_cents, rules.add_on_chips
            payment_kind = TransactionKind.ADD_ON
        record = tournament_payment(
            actor=actor,
            shift=shift,
            player=locked.player,
            kind=payment_kind,
            tournament_id=tournament.pk,
            prize_cents=prize,
            fee_cents=fee,
            bounty_cents=0,
            method=method,
            idempotency_key=idempotency_key,
            now=now,
        )
        EntryPayment.objects.create(
            entry=locked,
            kind=kind,
            cashier_transaction=record,
            prize_cents=prize,
            fee_cents=fee,
            chips=chips,
            created_at=now,
        )
        field = "rebuys" if kind == EntryPaymentKind.REBUY else "add_ons"
        counted_before = snapshot(locked, [field])
        setattr(locked, field, getattr(locked, field) + 1)
        locked.save(update_fields=[field])
        audit_record(
            actor=actor,
            action=f"entry.{kind}",
            obj=locked,
            before=counted_before,
            after={field: getattr(locked, field), "receipt": record.receipt_number, "chips": chips},
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation=f"tournaments.entry_{kind}",
        request={"shift": shift.pk, "entry": entry.pk, "method": method},
        run=buy,
        load=lambda pk: Entry.objects.get(pk=pk),
        before=before,
        now=now,
    )


def entry_rebuy(
    *,
    actor,
    entry: Entry,
    shift: Shift,
    method: str = PaymentMethod.CASH,
    idempotency_key: str,
    now: datetime | None = None,
) -> Entry:
    """A rebuy (TRN-6): allowed until the end of the tournament's rebuy level, up to its limit."""
    return _buy_more(
        actor=actor,
        entry=entry,
        shift=shift,
        method=method,
        idempotency_key=idempotency_key,
        kind=EntryPaymentKind.REBUY,
        now=now,
    )


def entry_add_on(
    *,
    actor,
    entry: Entry,
    shift: Shift,
    method: str = PaymentMethod.CASH,
    idempotency_key: str,
    now: datetime | None = None,
) -> Entry:
    """One add-on per entry (TRN-6), until the end of the tournament's add-on level."""
    return _buy_more(
        actor=actor,
        entry=entry,
        shift=shift,
        method=method,
        idempotency_key=idempotency_key,
        kind=EntryPaymentKind.ADD_ON,
        now=now,
    )
