"""Which days of a range come from the rollups and which from the raw records."""

from datetime import date, datetime, timedelta

from django.db.models import Min
from django.utils import timezone

from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import Entry
from reports.models import RolledUpDay


def days_of(start: date, end: date) -> list[date]:
    return [start + timedelta(days=n) for n in range((end - start).days + 1)]


def first_day() -> date | None:
    """The gaming day of the ledger's first entry: nothing happened before it."""
    first = Entry.objects.aggregate(first=Min("created_at"))["first"]
    return gaming_day_of(first) if first is not None else None


def live_days(*, start: date, end: date, now: datetime | None = None) -> list[date]:
    """The days of start..end that are not rolled up and may hold something: from the ledger's
    first day to today. Normally only today; every ended day is rolled up by the beat task."""
    now = now or timezone.now()
    first = first_day()
    if first is None:
        return []
    start, end = max(start, first), min(end, gaming_day_of(now))
    if end < start:
        return []
    rolled = RolledUpDay.objects.filter(day__gte=start, day__lte=end)
    if rolled.count() == (end - start).days + 1:
        return []
    done = set(rolled.values_list("day", flat=True))
    return [day for day in days_of(start, end) if day not in done]


def range_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """[first moment, last moment) of the gaming days start..end."""
    return gaming_day_bounds(start)[0], gaming_day_bounds(end)[1]
