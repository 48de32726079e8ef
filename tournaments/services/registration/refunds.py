"""The refunds of a cancelled tournament (TRN-2): owed in one posting at the cancellation, then
paid to each player at the cashier."""

from datetime import datetime

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind, Shift, TransactionKind
from cashier.services import account_for, ledger_post, tournament_payout
from tournaments.models import Entry, EntryPayment, EntryStatus, Tournament
from tournaments.services._common import lock_entry, rules_for, tournament_owner
from tournaments.services.payouts.bounties import bounties_lapse


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
    # Every bounty goes back with its entry's refund: awards not paid yet lapse.
    bounties_lapse(tournament, actor=actor, now=now)
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

    def pay() -> Entry:
        tournament, locked = lock_entry(entry)
        if locked.status != EntryStatus.REFUND_DUE:
            raise DomainError(
                "no_refund_due",
                _("Entry %(n)d has no refund due (it is %(status)s).")
                % {"n": locked.number, "status": locked.get_status_display()},
                rule="TRN-2",
                status_code=409,
            )
        record = tournament_payout(
            actor=actor,
            shift=shift,
            kind=TransactionKind.REFUND,
            player=locked.player,
            tournament_id=tournament.pk,
            amount_cents=locked.refund_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.status = EntryStatus.REFUNDED
        locked.refund_transaction = record
        locked.save(update_fields=["status", "refund_transaction"])
        audit_record(
            actor=actor,
            action="entry.refund_paid",
            obj=locked,
            before={"status": EntryStatus.REFUND_DUE},
            after={
                "status": locked.status,
                "receipt": record.receipt_number,
                "amount_cents": locked.refund_cents,
            },
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="tournaments.refund_pay",
        request={"shift": shift.pk, "entry": entry.pk},
        run=pay,
        load=lambda pk: Entry.objects.get(pk=pk),
        now=now,
    )
