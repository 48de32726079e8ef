"""Registration at the cashier (TRN-6, PLY-1), presence, rebuys and add-ons, the start with its
minimum field (TRN-1), postponing, and the refunds of a cancelled tournament (TRN-2).

Lock order, the same everywhere: the tournament row, then (inside the cashier's service) the
shift, the player, the paying account and the receipt counter; entries are locked after the
tournament, in primary-key order.
"""

import random
from datetime import datetime

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashier.models import AccountKind, PaymentMethod, Shift, TransactionKind
from cashier.services import account_for, ledger_post, refund_payout, tournament_payment
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
from tournaments.services._common import (
    check_transition,
    lock_tournament,
    rules_for,
    tournament_owner,
)

REGISTRATION_STATUSES = frozenset({TournamentStatus.REGISTERING, *CLOCK_STARTED})
ENTRY_FIELDS = ["status", "present", "table", "seat", "rebuys", "add_ons", "refund_cents"]


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


def _lock_entry(entry: Entry) -> tuple[Tournament, Entry]:
    tournament = lock_tournament(entry.tournament_id)
    return tournament, Entry.objects.select_for_update(of=("self",)).get(pk=entry.pk)


@transaction.atomic
def entry_mark_present(*, actor, entry: Entry, present: bool, now: datetime | None = None) -> Entry:
    """The floor marks a registered player present (or absent) at the venue: TRN-3 counts these."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament, entry = _lock_entry(entry)
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
    done = EntryPayment.objects.filter(cashier_transaction__idempotency_key=idempotency_key).first()
    if done is not None:
        if done.entry_id != entry.pk or done.kind != kind:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used for another transaction. Use a new key."),
                rule="CAG-2",
            )
        return Entry.objects.get(pk=entry.pk)
    player_require_eligible(actor=actor, player=entry.player, purpose=_("buy chips"), now=now)
    clock.clock_advance_due(tournament_id=entry.tournament_id, now=now)
    with transaction.atomic():
        tournament, entry = _lock_entry(entry)
        clock.advance_locked(tournament, now=now)
        rules = rules_for(tournament)
        if entry.status != EntryStatus.ACTIVE:
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
            if entry.rebuys >= rules.max_rebuys:
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
            if entry.add_ons >= 1:
                raise DomainError(
                    "add_on_limit", _("This entry already took its add-on."), rule="TRN-6", status_code=409
                )
            prize, fee, chips = rules.add_on_prize_cents, rules.add_on_fee_cents, rules.add_on_chips
            payment_kind = TransactionKind.ADD_ON
        record = tournament_payment(
            actor=actor,
            shift=shift,
            player=entry.player,
            kind=payment_kind,
            tournament_id=tournament.pk,
            prize_cents=prize,
            fee_cents=fee,
            bounty_cents=0,
            method=method,
            idempotency_key=idempotency_key,
            now=now,
        )
        if record.replayed:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used for another transaction. Use a new key."),
                rule="CAG-2",
            )
        EntryPayment.objects.create(
            entry=entry,
            kind=kind,
            cashier_transaction=record,
            prize_cents=prize,
            fee_cents=fee,
            chips=chips,
            created_at=now,
        )
        field = "rebuys" if kind == EntryPaymentKind.REBUY else "add_ons"
        before = snapshot(entry, [field])
        setattr(entry, field, getattr(entry, field) + 1)
        entry.save(update_fields=[field])
        audit_record(
            actor=actor,
            action=f"entry.{kind}",
            obj=entry,
            before=before,
            after={field: getattr(entry, field), "receipt": record.receipt_number, "chips": chips},
            now=now,
        )
    return entry


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


def registered_count(tournament: Tournament) -> int:
    return tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()


@transaction.atomic
def tournament_start(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> Tournament:
    """Start the tournament (TRN-1): refused with fewer registered entries than its minimum; the
    seats are drawn if the floor has not drawn them yet (TRN-9), and the clock starts (TRN-8)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    check_transition(tournament, TournamentStatus.RUNNING)
    count = registered_count(tournament)
    if count < tournament.min_players:
        raise DomainError(
            "not_enough_players",
            _(
                "Only %(count)d players are registered; this tournament needs at least %(min)d to start. "
                "Postpone the start or cancel the tournament."
            )
            % {"count": count, "min": tournament.min_players},
            rule="TRN-1",
            status_code=409,
        )
    if not tournament.tables.exists():
        seating.seating_draw(actor=actor, tournament=tournament, now=now, rng=rng)
    return clock.clock_start(actor=actor, tournament=tournament, now=now)


@transaction.atomic
def tournament_postpone(
    *, actor, tournament: Tournament, start_at: datetime, now: datetime | None = None
) -> Tournament:
    """Move the start time (TRN-1: the floor may postpone a start that is short of players)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if timezone.is_naive(start_at):
        raise DomainError("naive_start", _("The start time needs a time zone."))
    tournament = lock_tournament(tournament.pk)
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise DomainError(
            "already_started",
            _("Only a tournament that has not started can be postponed."),
            rule="TRN-1",
            status_code=409,
        )
    if start_at <= tournament.start_at:
        raise DomainError(
            "not_later", _("Postponing needs a start time later than the current one."), rule="TRN-1"
        )
    before = snapshot(tournament, ["start_at"])
    tournament.start_at = start_at
    tournament.save(update_fields=["start_at"])
    audit_record(
        actor=actor,
        action="tournament.postpone",
        obj=tournament,
        before=before,
        after=snapshot(tournament, ["start_at"]),
        now=now,
    )
    return tournament


def refunds_owed(tournament: Tournament, *, actor, now: datetime) -> None:
    """TRN-2, inside the cancellation's transaction (the caller holds the tournament's lock):
    every entry's payments move, in one balanced non-cash posting, from the prize pool, fee
    revenue and bounty pool to the tournament's refunds payable; each entry is marked refund
    due with its amount. The cashier then pays each one out (refund_pay)."""
    entries = list(
        tournament.entries.select_for_update(of=("self",))
        .filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])
        .order_by("pk")
    )
    if not entries:
        return
    if tournament.entries.filter(prize_transaction__isnull=False).exists():
        raise DomainError(
            "prizes_paid",
            _("Prizes were already paid; the tournament can no longer be cancelled."),
            rule="TRN-2",
            status_code=409,
        )
    sums = {
        row["entry_id"]: row
        for row in EntryPayment.objects.filter(entry__in=entries)
        .values("entry_id")
        .annotate(prize=Sum("prize_cents"), fee=Sum("fee_cents"), bounty=Sum("bounty_cents"))
    }
    prize = sum(row["prize"] for row in sums.values())
    fee = sum(row["fee"] for row in sums.values())
    bounty = sum(row["bounty"] for row in sums.values())
    owner = tournament_owner(tournament.pk)
    rules = rules_for(tournament)
    lines = [
        (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), prize),
        (account_for(kind=AccountKind.TOURNAMENT_FEES), fee),
        (account_for(kind=AccountKind.BOUNTY_POOL, owner=owner), bounty),
        (account_for(kind=AccountKind.REFUNDS_PAYABLE, owner=owner), -(prize + fee + bounty)),
    ]
    if rules.overlay_cents:
        # The overlay never belonged to the players: it goes back to the house.
        lines += [
            (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), rules.overlay_cents),
            (account_for(kind=AccountKind.OVERLAY_EXPENSE), -rules.overlay_cents),
        ]
    ledger_post(
        lines=lines, description=f"Tournament {tournament.pk} cancelled: refunds owed", actor=actor, now=now
    )
    for entry in entries:
        row = sums.get(entry.pk, {"prize": 0, "fee": 0, "bounty": 0})
        entry.refund_cents = row["prize"] + row["fee"] + row["bounty"]
        entry.status = EntryStatus.REFUND_DUE
        entry.table = None
        entry.seat = None
    Entry.objects.bulk_update(entries, ["refund_cents", "status", "table", "seat"])
    audit_record(
        actor=actor,
        action="tournament.refunds_owed",
        obj=tournament,
        after={"entries": len(entries), "prize_cents": prize, "fee_cents": fee, "bounty_cents": bounty},
        now=now,
    )


def refund_pay(
    *, actor, entry: Entry, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Entry:
    """The cashier pays a cancelled tournament's refund in cash from refunds payable (TRN-2)."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    done = Entry.objects.filter(refund_transaction__idempotency_key=idempotency_key).first()
    if done is not None:
        if done.pk != entry.pk:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used. Use a new key."),
                rule="CAG-2",
            )
        return done
    with transaction.atomic():
        tournament, entry = _lock_entry(entry)
        if entry.status != EntryStatus.REFUND_DUE:
            raise DomainError(
                "no_refund_due",
                _("Entry %(n)d has no refund due (it is %(status)s).")
                % {"n": entry.number, "status": entry.get_status_display()},
                rule="TRN-2",
                status_code=409,
            )
        record = refund_payout(
            actor=actor,
            shift=shift,
            player=entry.player,
            tournament_id=tournament.pk,
            amount_cents=entry.refund_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        if record.replayed:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used. Use a new key."),
                rule="CAG-2",
            )
        entry.status = EntryStatus.REFUNDED
        entry.refund_transaction = record
        entry.save(update_fields=["status", "refund_transaction"])
        audit_record(
            actor=actor,
            action="entry.refund_paid",
            obj=entry,
            after={"receipt": record.receipt_number, "amount_cents": entry.refund_cents},
            now=now,
        )
    return entry


RULE_FIELDS = [
    "rebuy_level",
    "max_rebuys",
    "rebuy_prize_cents",
    "rebuy_fee_cents",
    "rebuy_chips",
    "add_on_level",
    "add_on_prize_cents",
    "add_on_fee_cents",
    "add_on_chips",
]


@transaction.atomic
def tournament_rules_update(
    *, actor, tournament: Tournament, now: datetime | None = None, **changes
) -> object:
    """Rebuy and add-on settings (TRN-6), changed only before the tournament starts."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    unknown = set(changes) - set(RULE_FIELDS)
    if unknown:
        raise DomainError(
            "unknown_field", _("These fields cannot be edited: %s") % ", ".join(sorted(unknown))
        )
    tournament = lock_tournament(tournament.pk)
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise DomainError(
            "already_started",
            _("Rebuy and add-on rules change only before the start."),
            rule="TRN-6",
            status_code=409,
        )
    rules = rules_for(tournament)
    before = snapshot(rules, RULE_FIELDS)
    for name, value in changes.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10**12:
            raise DomainError(
                "invalid_value", _("%s must be a whole number, 0 or more.") % name, rule="TRN-6"
            )
        setattr(rules, name, value)
    level_count = tournament.levels.filter(kind="level").count()
    for level_field, amount_fields in (
        ("rebuy_level", ("rebuy_prize_cents", "rebuy_fee_cents", "rebuy_chips", "max_rebuys")),
        ("add_on_level", ("add_on_prize_cents", "add_on_fee_cents", "add_on_chips")),
    ):
        level = getattr(rules, level_field)
        if level > level_count:
            raise DomainError(
                "invalid_level", _("The structure has only %d levels.") % level_count, rule="TRN-6"
            )
        if level and (
            getattr(rules, amount_fields[0]) + getattr(rules, amount_fields[1]) <= 0
            or not all(getattr(rules, name) > 0 for name in amount_fields[2:])
        ):
            raise DomainError(
                "incomplete_rule",
                _("Give the price and the chips (and for rebuys the number allowed) when they are allowed."),
                rule="TRN-6",
            )
    rules.save()
    audit_record(
        actor=actor,
        action="tournament.rules_update",
        obj=tournament,
        before=before,
        after=snapshot(rules, RULE_FIELDS),
        now=now,
    )
    return rules
