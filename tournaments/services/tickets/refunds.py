"""A ticket refunded by a manager with a reason, and the refund paid at the cage (SER-1, TRN-2)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind, Shift
from cashier.services import account_for, ledger_post, ticket_refund_payout
from tournaments.models import Ticket, TicketSource, TicketStatus
from tournaments.services._common import lock_ticket, lock_tournament
from tournaments.services.tickets._common import refuse, require_issued


def refund_refusal(ticket: Ticket) -> DomainError | None:
    """Why this ticket cannot be refunded in cash, or None. A ticket bought with loyalty points is
    a comp (LOY-1): paid out, it would turn points into cash; it is used or it expires."""
    if ticket.source == TicketSource.LOYALTY:
        return DomainError(
            "loyalty_ticket_not_refunded",
            _(
                "This ticket was bought with loyalty points: it is not refunded in cash. "
                "It can be used, or it expires."
            ),
            rule="LOY-1",
            status_code=409,
        )
    return None


@transaction.atomic
def ticket_refund(*, actor, ticket: Ticket, reason: str, now: datetime | None = None) -> Ticket:
    """A manager refunds a valid ticket, with a reason: its worth moves from tickets outstanding
    to the ticket's refunds payable, which the cage pays the holder in cash (ticket_refund_pay)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise refuse("reason_required", _("Say why the ticket is refunded."))
    lock_tournament(ticket.tournament_id)
    locked = lock_ticket(ticket.pk)
    require_issued(locked, _("Ticket %(n)d is %(status)s: only a valid ticket can be refunded."))
    refusal = refund_refusal(locked)
    if refusal:
        raise refusal
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), locked.value_cents),
            (account_for(kind=AccountKind.REFUNDS_PAYABLE, owner=f"ticket:{locked.pk}"), -locked.value_cents),
        ],
        description=f"Ticket {locked.pk} refunded",
        actor=actor,
        now=now,
        reason=reason,
    )
    locked.status = TicketStatus.REFUNDED
    locked.refund_reason = reason[:200]
    locked.closed_at = now
    locked.closed_by = actor
    locked.save(update_fields=["status", "refund_reason", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.refund",
        obj=locked,
        before={"status": TicketStatus.ISSUED},
        after={"status": locked.status, "value_cents": locked.value_cents},
        note=reason,
        now=now,
    )
    return locked


def ticket_refund_pay(
    *, actor, ticket: Ticket, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Ticket:
    """The cashier pays a refunded ticket's worth to its holder in cash, once."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> Ticket:
        lock_tournament(ticket.tournament_id)
        locked = lock_ticket(ticket.pk)
        if locked.status != TicketStatus.REFUNDED or locked.refund_transaction_id is not None:
            raise refuse("no_refund_due", _("Ticket %(n)d has no refund to pay.") % {"n": locked.pk}, 409)
        record = ticket_refund_payout(
            actor=actor,
            shift=shift,
            player=locked.player,
            ticket_id=locked.pk,
            amount_cents=locked.value_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.refund_transaction = record
        locked.save(update_fields=["refund_transaction"])
        audit_record(
            actor=actor,
            action="ticket.refund_paid",
            obj=locked,
            after={"receipt": record.receipt_number, "amount_cents": record.amount_cents},
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="tournaments.ticket_refund_pay",
        request={"shift": shift.pk, "ticket": ticket.pk},
        run=pay,
        load=lambda pk: Ticket.objects.get(pk=pk),
        now=now,
    )
