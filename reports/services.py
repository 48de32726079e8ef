"""Writes of the reports app: only the rollups, rebuilt from the ledger on demand."""

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Case, Count, IntegerField, Min, Sum, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import Entry
from reports.models import AccountDayTotal, RolledUpDay


@transaction.atomic
def rollup_build_day(*, day: date, now: datetime | None = None) -> int:
    """(Re)build one ended gaming day's totals per account from the ledger. Idempotent."""
    now = now or timezone.now()
    if day >= gaming_day_of(now):
        raise DomainError("day_not_over", _("Gaming day %s has not ended yet.") % day.isoformat())
    start, end = gaming_day_bounds(day)
    rows = (
        Entry.objects.filter(created_at__gte=start, created_at__lt=end)
        .values("account_id")
        .annotate(
            debit=Sum(
                Case(
                    When(amount_cents__gt=0, then="amount_cents"),
                    default=Value(0),
                    output_field=IntegerField(),
                )
            ),
            credit=Sum(
                Case(
                    When(amount_cents__lt=0, then="amount_cents"),
                    default=Value(0),
                    output_field=IntegerField(),
                )
            ),
            count=Count("id"),
        )
    )
    AccountDayTotal.objects.filter(day=day).delete()
    AccountDayTotal.objects.bulk_create(
        [
            AccountDayTotal(
                day=day,
                account_id=row["account_id"],
                debit_cents=row["debit"],
                credit_cents=-row["credit"],
                entry_count=row["count"],
            )
            for row in rows
        ]
    )
    RolledUpDay.objects.update_or_create(day=day, defaults={"built_at": now})
    return len(rows)


def rollup_build_missing(*, now: datetime | None = None, limit: int = 400) -> list[date]:
    """Build every ended gaming day that has no rollup yet, oldest first (at most `limit`)."""
    now = now or timezone.now()
    first = Entry.objects.aggregate(first=Min("created_at"))["first"]
    if first is None:
        return []
    today = gaming_day_of(now)
    day = gaming_day_of(first)
    done = set(RolledUpDay.objects.filter(day__gte=day).values_list("day", flat=True))
    built = []
    while day < today and len(built) < limit:
        if day not in done:
            rollup_build_day(day=day, now=now)
            built.append(day)
        day += timedelta(days=1)
    return built


def rollup_invalidate(*, moment: datetime) -> None:
    """A posting dated into an ended gaming day (imports, corrections with an earlier time):
    that day's rollup is no longer final and is rebuilt by the next scheduled run."""
    RolledUpDay.objects.filter(day=gaming_day_of(moment)).delete()
