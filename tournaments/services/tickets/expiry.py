"""Tickets past their expiry leave the liability (SER-1): one by one, or all those due."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind
from cashier.services import account_for, ledger_post
from tournaments.models import Ticket, TicketSource, TicketStatus
from tournaments.services._common import lock_ticket, lock_tournament
from tournaments.services.tickets._common import refuse, require_issued


@transaction.atomic
def ticket_expire(*, actor, ticket: Ticket, now: datetime | None = None) -> Ticket:
    """A valid ticket past its expiry leaves the liability (see the package's note for where its
    worth goes). `actor` None: the scheduled sweep."""
    if actor is not None:
        require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    lock_tournament(ticket.tournament_id)
    locked = lock_ticket(ticket.pk)
    require_issued(locked, _("Ticket %(n)d is %(status)s: only a valid ticket expires."))
    if locked.expires_at is None or now < locked.expires_at:
        raise refuse("ticket_not_due", _("Ticket %(n)d has not expired.") % {"n": locked.pk}, 409)
    to = {
        TicketSource.GRANT: AccountKind.PROMOTION_EXPENSE,
        # LOY-1: a comp never used costs the room nothing: its cost is taken back.
        TicketSource.LOYALTY: AccountKind.LOYALTY_EXPENSE,
    }.get(locked.source, AccountKind.TICKETS_EXPIRED)
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), locked.value_cents),
            (account_for(kind=to), -locked.value_cents),
        ],
        description=f"Ticket {locked.pk} expired",
        actor=actor,
        now=now,
    )
    locked.status = TicketStatus.EXPIRED
    locked.closed_at = now
    locked.closed_by = actor
    locked.save(update_fields=["status", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.expire",
        obj=locked,
        before={"status": TicketStatus.ISSUED},
        after={"status": locked.status, "to": to},
        now=now,
    )
    return locked


def tickets_expire_due(*, actor=None, now: datetime | None = None) -> int:
    """Expire every valid ticket of the active venue past its expiry (a manager's tap, or a
    scheduled sweep with no actor); each in its own transaction, re-checked under its lock. The
    number expired."""
    if actor is not None:
        require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    due = list(
        Ticket.objects.filter(status=TicketStatus.ISSUED, expires_at__lte=now).values_list("pk", flat=True)
    )
    done = 0
    for pk in due:
        try:
            ticket_expire(actor=actor, ticket=Ticket.objects.get(pk=pk), now=now)
        except DomainError:
            continue  # used or refunded meanwhile
        done += 1
    return done
