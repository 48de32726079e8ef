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

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashier.models import PaymentMethod, Shift, TransactionKind
from cashier.services import tournament_payment
from players.models import Player
from players.services import player_require_eligible
from tournaments.models import (
    CLOCK_STARTED,
    COUNTED_STATUSES,
    Entry,
    EntryKind,
    EntryPayment,
    EntryPaymentKind,
    EntryStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import clock, seating, tickets
from tournaments.services._common import lock_entry, lock_tournament, rules_for

REGISTRATION_STATUSES = frozenset({TournamentStatus.REGISTERING, *CLOCK_STARTED})


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
    ticket_id: int | None = None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> Entry:
    """Register (or re-enter) a player at the cashier: the buy-in is posted through the ledger
    (prize part to the prize pool, fee to fee revenue, bounty to the bounty pool, TRN-6) and the
    entry is created in the same transaction; once seats are drawn it gets a seat (TRN-9).

    With `ticket_id` the entry is paid with that ticket (SER-1): checked under its lock (for this
    tournament, held by this player, valid), the buy-in is split from the tickets-outstanding
    liability as a cash buy-in would be, no cash moves, and the ticket is used once.

    Idempotent (CAG-2): the same key answers with the same entry and posts nothing.
    """
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    if ticket_id is not None:
        method = PaymentMethod.TICKET
    elif method == PaymentMethod.TICKET:
        raise DomainError("ticket_required", _("Say which ticket pays the entry."), rule="SER-1")

    def before() -> None:
        player_require_eligible(actor=actor, player=player, purpose=_("register for a tournament"), now=now)
        # A level already due rises first, in its own transaction, so late registration closes
        # on time (TRN-6) and stays closed even when this request is refused.
        clock.clock_advance_due(tournament_id=tournament.pk, now=now)

    def register() -> Entry:
        locked = lock_tournament(tournament.pk)
        clock.advance_locked(locked, now=now)
        rules = rules_for(locked)
        _require_registration_open(locked, rules)
        previous = locked.entries.filter(player=player, status__in=COUNTED_STATUSES)
        if previous.filter(status=EntryStatus.ACTIVE).exists():
            raise DomainError(
                "entry_still_active",
                _("%(player)s still has a live entry; a re-entry is possible only after busting.")
                % {"player": player.full_name},
                rule="TRN-6",
                status_code=409,
            )
        earlier = previous.count()
        if earlier > locked.max_reentries:
            raise DomainError(
                "reentry_limit",
                _("%(player)s has used all %(max)d re-entries of this tournament.")
                % {"player": player.full_name, "max": locked.max_reentries},
                rule="TRN-6",
                status_code=409,
            )
        kind = EntryKind.RE_ENTRY if earlier else EntryKind.BUY_IN
        ticket = None
        if ticket_id is not None:
            ticket = tickets.ticket_lock_for_use(
                ticket_id=ticket_id, tournament=locked, player=player, now=now
            )
        record = tournament_payment(
            actor=actor,
            shift=shift,
            player=player,
            kind=TransactionKind.RE_ENTRY if earlier else TransactionKind.TOURNAMENT_BUY_IN,
            tournament_id=locked.pk,
            prize_cents=locked.prize_cents,
            fee_cents=locked.fee_cents,
            bounty_cents=locked.bounty_cents,
            method=method,
            idempotency_key=idempotency_key,
            now=now,
        )
        number = (locked.entries.aggregate(top=Max("number"))["top"] or 0) + 1
        entry = Entry.objects.create(
            tournament=locked,
            player=player,
            number=number,
            kind=kind,
            present=present,
            cashier_transaction=record,
            starting_stack_chips=locked.starting_stack_chips,
            registered_at=now,
        )
        EntryPayment.objects.create(
            entry=entry,
            kind=EntryPaymentKind.RE_ENTRY if earlier else EntryPaymentKind.BUY_IN,
            cashier_transaction=record,
            prize_cents=locked.prize_cents,
            fee_cents=locked.fee_cents,
            bounty_cents=locked.bounty_cents,
            chips=locked.starting_stack_chips,
            created_at=now,
        )
        if ticket is not None:
            tickets.ticket_mark_used(ticket, entry=entry, actor=actor, now=now, receipt=record.receipt_number)
        audit_record(
            actor=actor,
            action="entry.register",
            obj=entry,
            after={
                "tournament": locked.pk,
                "player": player.pk,
                "number": number,
                "kind": kind,
                "receipt": record.receipt_number,
            },
            now=now,
        )
        if locked.tables.exists():
            seating.seat_new_entry(actor=actor, tournament=locked, entry=entry, now=now, rng=rng)
        return entry

    return run_once(
        key=idempotency_key,
        operation="tournaments.entry_register",
        request={
            "shift": shift.pk,
            "tournament": tournament.pk,
            "player": player.pk,
            "method": method,
            "present": present,
            "ticket": ticket_id,
        },
        run=register,
        load=lambda pk: Entry.objects.select_related("player", "table").get(pk=pk),
        before=before,
        now=now,
    )


@transaction.atomic
def entry_mark_present(*, actor, entry: Entry, present: bool, now: datetime | None = None) -> Entry:
    """The floor marks a registered player present (or absent) at the venue: TRN-3 counts these."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament, entry = lock_entry(entry)
    if entry.status not in COUNTED_STATUSES:
        raise DomainError(
            "entry_refunded",
            _("This entry was refunded; its presence no longer counts."),
            rule="TRN-3",
            status_code=409,
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
