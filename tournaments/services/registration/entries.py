"""Registration at the cashier (TRN-6, PLY-1) and presence at the venue (TRN-3).

Lock order, the same everywhere: the tournament row, then (inside the cashier's service) the
shift, the player, the paying account and the receipt counter; entries are locked after the
tournament, in primary-key order.
"""

import random
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashier.models import PaymentMethod, Shift, TransactionKind
from cashier.services import tournament_payment
from players.models import Player
from players.services import player_require_eligible
from tournaments.models import (
    CLOCK_STARTED,
    Entry,
    EntryKind,
    EntryPayment,
    EntryPaymentKind,
    EntryStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import clock, seating
from tournaments.services._common import lock_entry, lock_tournament, rules_for

REGISTRATION_STATUSES = frozenset({TournamentStatus.REGISTERING, *CLOCK_STARTED})


def _entry_for_key(idempotency_key: str) -> Entry | None:
    return (
        Entry.objects.filter(cashier_transaction__idempotency_key=idempotency_key)
        .select_related("cashier_transaction")
        .first()
    )


def _replayed_entry(entry: Entry, *, tournament: Tournament, player: Player) -> Entry:
    """CAG-2: the entry a key already made; the same key for another player or tournament is a 409."""
    if entry.tournament_id != tournament.pk or entry.player_id != player.pk:
        raise Conflict(
            "idempotency_key_reused",
            _("This idempotency key was already used for another registration. Use a new key."),
            rule="CAG-2",
        )
    entry.replayed = True
    return entry


def _require_registration_open(tournament: Tournament, rules) -> None:
    if tournament.status not in REGISTRATION_STATUSES:
        raise DomainError(
            "registration_not_open",
            _("Registration is not open: the tournament is %(status)s.")
            % {"status": tournament.get_status_display()},
            rule="TRN-6",
            status_code=409,
        )
    if rules.registration_closed_at is not None:
        raise DomainError(
            "registration_closed",
            _("Late registration closed at the end of level %(level)d; no new entries are taken.")
            % {"level": tournament.late_registration_level},
            rule="TRN-6",
            status_code=409,
        )


def entry_register(
    *,
    actor,
    tournament: Tournament,
    player: Player,
    shift: Shift,
    method: str = PaymentMethod.CASH,
    idempotency_key: str,
    present: bool = True,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> Entry:
    """Register (or re-enter) a player at the cashier: the buy-in is posted through the ledger
    (prize part to the prize pool, fee to fee revenue, bounty to the bounty pool, TRN-6) and the
    entry is created in the same transaction; once seats are drawn it gets a seat (TRN-9).

    Idempotent (CAG-2): the same key answers with the same entry and posts nothing.
    """
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    existing = _entry_for_key(idempotency_key)
    if existing is not None:
        return _replayed_entry(existing, tournament=tournament, player=player)
    # Before the transaction: the logged refusal must survive the rollback (PLY-1).
    player_require_eligible(actor=actor, player=player, purpose=_("register for a tournament"), now=now)
    # A level already due rises first, in its own transaction, so late registration closes on
    # time (TRN-6) and stays closed even when this request is refused.
    clock.clock_advance_due(tournament_id=tournament.pk, now=now)
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
        # A racing request with the same key waited on the lock: answer with its entry.
        existing = _entry_for_key(idempotency_key)
        if existing is not None:
            return _replayed_entry(existing, tournament=tournament, player=player)
        clock.advance_locked(tournament, now=now)
        rules = rules_for(tournament)
        _require_registration_open(tournament, rules)
        previous = tournament.entries.filter(player=player).exclude(
            status__in=[EntryStatus.REFUND_DUE, EntryStatus.REFUNDED]
        )
        if previous.filter(status=EntryStatus.ACTIVE).exists():
            raise DomainError(
                "entry_still_active",
                _("%(player)s still has a live entry; a re-entry is possible only after busting.")
                % {"player": player.full_name},
                rule="TRN-6",
                status_code=409,
            )
        earlier = previous.count()
        if earlier > tournament.max_reentries:
            raise DomainError(
                "reentry_limit",
                _("%(player)s has used all %(max)d re-entries of this tournament.")
                % {"player": player.full_name, "max": tournament.max_reentries},
                rule="TRN-6",
                status_code=409,
            )
        kind = EntryKind.RE_ENTRY if earlier else EntryKind.BUY_IN
        record = tournament_payment(
            actor=actor,
            shift=shift,
            player=player,
            kind=TransactionKind.RE_ENTRY if earlier else TransactionKind.TOURNAMENT_BUY_IN,
            tournament_id=tournament.pk,
            prize_cents=tournament.prize_cents,
            fee_cents=tournament.fee_cents,
            bounty_cents=tournament.bounty_cents,
            method=method,
            idempotency_key=idempotency_key,
            now=now,
        )
        if record.replayed:
            # The key paid for something that is not an entry (CAG-2).
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used for another transaction. Use a new key."),
                rule="CAG-2",
            )
        number = (tournament.entries.aggregate(top=Max("number"))["top"] or 0) + 1
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            number=number,
            kind=kind,
            present=present,
            cashier_transaction=record,
            starting_stack_chips=tournament.starting_stack_chips,
            registered_at=now,
        )
        EntryPayment.objects.create(
            entry=entry,
            kind=EntryPaymentKind.RE_ENTRY if earlier else EntryPaymentKind.BUY_IN,
            cashier_transaction=record,
            prize_cents=tournament.prize_cents,
            fee_cents=tournament.fee_cents,
            bounty_cents=tournament.bounty_cents,
            chips=tournament.starting_stack_chips,
            created_at=now,
        )
        audit_record(
            actor=actor,
            action="entry.register",
            obj=entry,
            after={
                "tournament": tournament.pk,
                "player": player.pk,
                "number": number,
                "kind": kind,
                "receipt": record.receipt_number,
            },
            now=now,
        )
        if tournament.tables.exists():
            seating.seat_new_entry(actor=actor, tournament=tournament, entry=entry, now=now, rng=rng)
    entry.replayed = False
    return entry


@transaction.atomic
def entry_mark_present(*, actor, entry: Entry, present: bool, now: datetime | None = None) -> Entry:
    """The floor marks a registered player present (or absent) at the venue: TRN-3 counts these."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament, entry = lock_entry(entry)
    if entry.status in (EntryStatus.REFUND_DUE, EntryStatus.REFUNDED):
        raise DomainError(
            "entry_refunded", _("This entry was refunded; its presence no longer counts."), status_code=409
        )
    # A change after the guarantee decision does not change it (TRN-3 is decided once, on the
    # count at the deadline); the audit note says so.
    decided = rules_for(tournament).guarantee_decided_at is not None
    audit_note = "after the guarantee decision" if decided else ""
    before = snapshot(entry, ["present"])
    entry.present = present
    entry.save(update_fields=["present"])
    audit_record(
        actor=actor,
        action="entry.present",
        obj=entry,
        before=before,
        after={"present": present},
        note=audit_note,
        now=now,
    )
    return entry
