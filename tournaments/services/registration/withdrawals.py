"""An entry given back before it plays (CAG-6, TRN-6), and what a reversal of a tournament's
cashier transaction does to the tournament's records.

An entry has played once it is busted, or once the clock runs with the entry seated: from then
on its money is in the game, and giving it back is refused.
"""

from datetime import datetime

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import CashierTransaction, PaymentMethod, Shift, TransactionKind
from cashier.services import tournament_refund
from tournaments.models import (
    BountyAward,
    Entry,
    EntryPayment,
    EntryStatus,
    Ticket,
    Tournament,
    TournamentStatus,
)
from tournaments.services import seating, tickets
from tournaments.services._common import lock_entry, lock_ticket, lock_tournament


def entry_has_played(entry: Entry, tournament: Tournament) -> bool:
    # A finished tournament's entries that are still "playing" are its winners: they played to
    # the end, and their buy-ins are in the prizes paid.
    if entry.status == EntryStatus.BUSTED or tournament.status == TournamentStatus.FINISHED:
        return True
    return tournament.clock_started and entry.table_id is not None


def _require_withdrawable(entry: Entry, tournament: Tournament) -> None:
    if entry.status != EntryStatus.ACTIVE:
        raise DomainError(
            "entry_not_withdrawable",
            _("Entry %(n)d of %(player)s is %(status)s: there is nothing to give back.")
            % {"n": entry.number, "player": entry.player.full_name, "status": entry.get_status_display()},
            rule="CAG-6",
            status_code=409,
        )
    if entry_has_played(entry, tournament):
        raise DomainError(
            "entry_has_played",
            _(
                "Entry %(n)d of %(player)s has played in %(tournament)s: its buy-in can no longer be "
                "given back."
            )
            % {"n": entry.number, "player": entry.player.full_name, "tournament": tournament.name},
            rule="CAG-6",
            status_code=409,
        )


def _withdraw(entry: Entry, *, actor, now: datetime, why: str) -> None:
    """Mark the entry withdrawn and free its seat (the caller holds the tournament's lock)."""
    before = {"status": entry.status, "table": entry.table_id, "seat": entry.seat}
    entry.status = EntryStatus.WITHDRAWN
    entry.table = None
    entry.seat = None
    entry.save(update_fields=["status", "table", "seat"])
    # A player who leaves moves nowhere: a move slip still waiting for them is called off (TRN-9).
    seating.slips_call_off(actor=actor, tournament=entry.tournament, entry_ids=[entry.pk], now=now)
    audit_record(
        actor=actor,
        action="entry.withdraw",
        obj=entry,
        before=before,
        after={"status": entry.status, "table": None, "seat": None},
        note=why,
        now=now,
    )


def entry_withdraw(
    *,
    actor,
    entry: Entry,
    shift: Shift,
    idempotency_key: str,
    method: str = PaymentMethod.CASH,
    now: datetime | None = None,
) -> Entry:
    """The cashier gives an entry that has not played its whole buy-in back (prize part, fee and
    bounty, as the entry paid them) and the entry leaves the field."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def withdraw() -> Entry:
        tournament, locked = lock_entry(entry)
        _require_withdrawable(locked, tournament)
        # An entry a ticket paid goes back to its ticket, never to cash (SER-1).
        ticket = Ticket.objects.filter(used_by=locked).first()
        if ticket is not None:
            ticket = lock_ticket(ticket.pk)
        paid = EntryPayment.objects.filter(entry=locked).aggregate(
            prize=Sum("prize_cents"), fee=Sum("fee_cents"), bounty=Sum("bounty_cents")
        )
        record = tournament_refund(
            actor=actor,
            shift=shift,
            player=locked.player,
            tournament_id=tournament.pk,
            prize_cents=paid["prize"] or 0,
            fee_cents=paid["fee"] or 0,
            bounty_cents=paid["bounty"] or 0,
            method=PaymentMethod.TICKET if ticket is not None else method,
            idempotency_key=idempotency_key,
            note=_("Entry %d withdrawn") % locked.number,
            now=now,
        )
        locked.refund_cents = record.amount_cents
        locked.refund_transaction = record
        locked.save(update_fields=["refund_cents", "refund_transaction"])
        _withdraw(locked, actor=actor, now=now, why=f"refund receipt {record.receipt_number}")
        if ticket is not None:
            tickets.ticket_give_back(
                ticket,
                actor=actor,
                now=now,
                why=f"entry {locked.number} withdrawn, receipt {record.receipt_number}",
            )
        return locked

    return run_once(
        key=idempotency_key,
        operation="tournaments.entry_withdraw",
        request={"shift": shift.pk, "entry": entry.pk, "method": method},
        run=withdraw,
        load=lambda pk: Entry.objects.get(pk=pk),
        now=now,
    )


def transaction_reversal_check(*, record: CashierTransaction) -> None:
    """Refuse, before a correction is asked for, the reversal of a tournament transaction that
    the tournament cannot undo (CAG-6)."""
    _reversal_effect(record=record, actor=None, now=None, apply=False)


def transaction_reversed(*, actor, record: CashierTransaction, now: datetime) -> None:
    """The tournament's side of a reversal, in the reversal's transaction (CAG-6): a buy-in
    withdraws its entry, a paid prize, bounty or refund becomes due again."""
    _reversal_effect(record=record, actor=actor, now=now, apply=True)


def _reversal_effect(*, record: CashierTransaction, actor, now, apply: bool) -> None:
    kind = record.kind
    if record.method == PaymentMethod.TICKET or record.reference.startswith("ticket:"):
        raise DomainError(
            "ticket_not_reversed",
            _(
                "A ticket's transaction is not reversed: withdraw the entry to give the ticket back, "
                "or have a manager refund the ticket."
            ),
            rule="SER-1",
            status_code=409,
        )
    if kind in (TransactionKind.TOURNAMENT_BUY_IN, TransactionKind.RE_ENTRY):
        entry = Entry.objects.select_related("player").get(cashier_transaction=record)
        tournament = lock_tournament(entry.tournament_id) if apply else entry.tournament
        if apply:
            entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
        _require_withdrawable(entry, tournament)
        if apply:
            _withdraw(entry, actor=actor, now=now, why=f"buy-in receipt {record.receipt_number} reversed")
    elif kind in (TransactionKind.REBUY, TransactionKind.ADD_ON):
        raise DomainError(
            "chips_in_play",
            _(
                "The chips of a rebuy or add-on are in play: it cannot be reversed. Correct the "
                "stack at the table."
            ),
            rule="CAG-6",
            status_code=409,
        )
    elif kind == TransactionKind.PRIZE_PAYOUT:
        if apply:
            entry = Entry.objects.select_for_update(of=("self",)).get(prize_transaction=record)
            entry.prize_transaction = None
            entry.save(update_fields=["prize_transaction"])
            _audit_due_again(entry, actor=actor, now=now, what="prize", record=record)
    elif kind == TransactionKind.BOUNTY_PAYOUT:
        if apply:
            awards = BountyAward.objects.select_for_update(of=("self",)).filter(transaction=record)
            entry = awards.first().entry
            awards.update(transaction=None)
            _audit_due_again(entry, actor=actor, now=now, what="bounty", record=record)
    elif kind == TransactionKind.REFUND:
        entry = Entry.objects.filter(refund_transaction=record).first()
        if entry is not None and entry.status == EntryStatus.WITHDRAWN:
            raise DomainError(
                "register_again",
                _("A withdrawn entry is not reversed: register the player again."),
                rule="CAG-6",
                status_code=409,
            )
        if apply and entry is not None:
            entry = Entry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
            entry.status = EntryStatus.REFUND_DUE
            entry.refund_transaction = None
            entry.save(update_fields=["status", "refund_transaction"])
            _audit_due_again(entry, actor=actor, now=now, what="refund", record=record)


def _audit_due_again(entry: Entry, *, actor, now: datetime, what: str, record: CashierTransaction) -> None:
    audit_record(
        actor=actor,
        action=f"entry.{what}_due_again",
        obj=entry,
        before={"paid_by_receipt": record.receipt_number},
        after={"paid_by_receipt": None},
        note=f"receipt {record.receipt_number} reversed",
        now=now,
    )
