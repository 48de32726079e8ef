"""Tournament tickets in a period (SER-1): per target tournament, the tickets issued, used,
refunded and expired in the period and those outstanding (valid) at its end, counts and worth."""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import Count, Q, Sum
from django.utils import timezone

from reports.selectors.common import range_bounds
from tournaments.models import Ticket, TicketStatus


@dataclass
class TicketLine:
    tournament: str = ""
    tournament_id: int | None = None
    issued: int = 0
    issued_cents: int = 0
    used: int = 0
    used_cents: int = 0
    refunded: int = 0
    refunded_cents: int = 0
    expired: int = 0
    expired_cents: int = 0
    outstanding: int = 0
    outstanding_cents: int = 0

    def add(self, other: "TicketLine") -> None:
        for name in (
            "issued",
            "used",
            "refunded",
            "expired",
            "outstanding",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
            cents = f"{name}_cents"
            setattr(self, cents, getattr(self, cents) + getattr(other, cents))


@dataclass
class TicketReport:
    lines: list[TicketLine] = field(default_factory=list)
    total: TicketLine = field(default_factory=TicketLine)

    @property
    def any(self) -> bool:
        return bool(self.lines)


def ticket_report(*, start: date, end: date, now: datetime | None = None) -> TicketReport:
    """The active venue's tickets moved in the gaming days start..end (a ticket closes when it is
    used, refunded or expires: `closed_at`), and those valid at the end of the period."""
    now = now or timezone.now()
    first, last = range_bounds(start, end)
    last = min(last, now) if end >= start else last
    closed_in = Q(closed_at__gte=first, closed_at__lt=last)
    # Valid at `last`: issued before it and not closed before it.
    open_then = Q(issued_at__lt=last) & (Q(closed_at__isnull=True) | Q(closed_at__gte=last))

    def count_sum(name: str, condition: Q) -> dict:
        return {
            name: Count("pk", filter=condition),
            f"{name}_cents": Sum("value_cents", filter=condition, default=0),
        }

    rows = (
        Ticket.objects.filter(Q(issued_at__lt=last) & (Q(closed_at__isnull=True) | Q(closed_at__gte=first)))
        .values("tournament_id", "tournament__name")
        .annotate(
            **count_sum("issued", Q(issued_at__gte=first, issued_at__lt=last)),
            **count_sum("used", closed_in & Q(status=TicketStatus.USED)),
            **count_sum("refunded", closed_in & Q(status=TicketStatus.REFUNDED)),
            **count_sum("expired", closed_in & Q(status=TicketStatus.EXPIRED)),
            **count_sum("outstanding", open_then),
        )
        .order_by("tournament__start_at", "tournament_id")
    )
    report = TicketReport()
    for row in rows:
        line = TicketLine(
            tournament=row.pop("tournament__name"),
            tournament_id=row.pop("tournament_id"),
            **row,
        )
        report.lines.append(line)
        report.total.add(line)
    return report
