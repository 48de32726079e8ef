"""What the ticket services share: the rule and its refusal, and the check that a ticket is still
valid."""

from cardroom.errors import DomainError
from tournaments.models import Ticket, TicketStatus

RULE = "SER-1"


def refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def require_issued(ticket: Ticket, message: str) -> None:
    """`message` takes %(n)d and %(status)s: a valid ticket only."""
    if ticket.status != TicketStatus.ISSUED:
        raise refuse(
            "ticket_not_valid",
            message % {"n": ticket.pk, "status": ticket.get_status_display()},
            409,
        )
