"""Tickets (SER-1): a tournament's tickets and what the cage may do with each."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Ticket, TicketStatus, Tournament, TournamentStatus


def ticket_list(*, tournament: Tournament) -> QuerySet[Ticket]:
    """Every ticket for `tournament`, oldest first, with what the page shows."""
    return (
        Ticket.objects.filter(tournament=tournament)
        .select_related("player", "used_by", "satellite_entry__tournament", "issued_by", "refund_transaction")
        .order_by("pk")
    )


def ticket_totals(*, tickets: QuerySet[Ticket]) -> dict[str, dict[str, int]]:
    """{status: {"count", "cents"}} for every status, and "all"."""
    rows = {
        row["status"]: {"count": row["count"], "cents": row["cents"] or 0}
        for row in tickets.order_by().values("status").annotate(count=Count("pk"), cents=Sum("value_cents"))
    }
    totals = {status: rows.get(status, {"count": 0, "cents": 0}) for status in TicketStatus.values}
    totals["all"] = {
        "count": sum(row["count"] for row in totals.values()),
        "cents": sum(row["cents"] for row in totals.values()),
    }
    return totals


@dataclass(frozen=True)
class DeskTicket:
    ticket: Ticket
    refused: str  # why "Register with ticket" is disabled now ("" when it can be tapped)


def desk_tickets(
    *, tournament: Tournament, registration_open: bool, now: datetime | None = None
) -> list[DeskTicket]:
    """The valid tickets for `tournament` not used yet, each with the reason the desk cannot take
    it now, if any (the button is disabled with it, never refused after the tap)."""
    now = now or timezone.now()
    found = []
    for ticket in ticket_list(tournament=tournament).filter(status=TicketStatus.ISSUED):
        refused = ""
        if not registration_open:
            refused = _("Registration is closed.")
        elif ticket.expires_at is not None and now >= ticket.expires_at:
            refused = _("The ticket has expired.")
        elif ticket.value_cents != tournament.buy_in_cents:
            refused = _("The ticket is not worth the buy-in: ask a manager.")
        elif tournament.entries.filter(player_id=ticket.player_id, status="active").exists():
            refused = _("The player is already in the tournament.")
        found.append(DeskTicket(ticket=ticket, refused=refused))
    return found


def satellite_targets(*, tournament: Tournament) -> QuerySet[Tournament]:
    """Tournaments of this venue a satellite could award seats in (the service checks again)."""
    return (
        Tournament.objects.exclude(pk=tournament.pk)
        .exclude(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
        .filter(Q(rules__isnull=True) | Q(rules__registration_closed_at__isnull=True))
        .order_by("start_at", "pk")
    )
