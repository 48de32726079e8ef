"""Drop-box reconciliation (RAK-5): the counted drop box of a table for a period against the
rake its hand log implies for that period; the difference is recorded and reported.

The count records and reports; it posts nothing: the rake was posted hand by hand at each hand's
end (chips in play -> rake revenue), and a variance is for the manager to investigate.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashgame.locks import table_for_update
from cashgame.models import CashTable, DropBoxCount, Hand, HandStatus

DROP_COUNT_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


def rake_in_period(*, table_id: int, start: datetime, end: datetime) -> tuple[int, int]:
    """(rake in cents, hands raked) of the hands ended at the table in [start, end)."""
    totals = Hand.objects.filter(
        table_id=table_id, status=HandStatus.ENDED, ended_at__gte=start, ended_at__lt=end, rake_cents__gt=0
    ).aggregate(rake=Sum("rake_cents"), hands=Count("pk"))
    return totals["rake"] or 0, totals["hands"]


@transaction.atomic
def dropbox_count_record(
    *,
    actor,
    table: CashTable,
    period_start: datetime,
    period_end: datetime,
    counted_cents: int,
    note: str = "",
    now: datetime | None = None,
) -> DropBoxCount:
    """Record a drop-box count (RAK-5). Periods of one table never overlap, so every hand's rake
    is reconciled once; a period still running cannot be counted."""
    require_role(actor, *DROP_COUNT_ROLES)
    now = now or timezone.now()
    if period_end <= period_start:
        raise DomainError("invalid_period", _("The period must end after it starts."), rule="RAK-5")
    if period_end > now:
        raise DomainError("period_not_over", _("Count the drop box after the period ends."), rule="RAK-5")
    if not isinstance(counted_cents, int) or not 0 <= counted_cents <= MAX_CENTS:
        raise DomainError("invalid_count", _("The counted drop box is 0.00 EUR or more."), rule="RAK-5")
    table = table_for_update(table.pk)
    overlap = DropBoxCount.objects.filter(
        table=table, period_start__lt=period_end, period_end__gt=period_start
    )
    if overlap.exists():
        raise DomainError(
            "period_overlaps",
            _("%s already has a drop-box count for part of this period.") % table,
            rule="RAK-5",
            status_code=409,
        )
    expected, hands = rake_in_period(table_id=table.pk, start=period_start, end=period_end)
    count = DropBoxCount.objects.create(
        table=table,
        period_start=period_start,
        period_end=period_end,
        counted_cents=counted_cents,
        expected_cents=expected,
        variance_cents=counted_cents - expected,
        hands=hands,
        counted_by=actor,
        counted_at=now,
        note=note[:200],
    )
    audit_record(
        actor=actor,
        action="cashgame.dropbox_count",
        obj=count,
        after={
            "counted_cents": counted_cents,
            "expected_cents": expected,
            "variance_cents": count.variance_cents,
        },
        now=now,
    )
    return count
