"""Reads of the shared kernel."""

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.db.models import DateTimeField, ExpressionWrapper, F, QuerySet
from django.db.models.functions import TruncDate

from cardroom.models import AuditRecord, Venue
from cardroom.venues import venue_current


def venue_get() -> Venue:
    """The venue the running code works for (cardroom.venues): the request's or the task's, else
    the installation's default venue."""
    return venue_current()


def venue_zone(venue: Venue | None = None) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo((venue or venue_get()).time_zone)


def gaming_day_of(moment: datetime, *, venue: Venue | None = None) -> date:
    """The gaming day a moment belongs to: days start at the venue's hour, not at midnight."""
    venue = venue or venue_get()
    local = moment.astimezone(venue_zone(venue))
    return (local - timedelta(hours=venue.gaming_day_start_hour)).date()


def gaming_day_bounds(day: date, *, venue: Venue | None = None) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day as aware datetimes (DST-safe: built in local time)."""
    venue = venue or venue_get()
    zone = venue_zone(venue)
    start = datetime.combine(day, time(hour=venue.gaming_day_start_hour), tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time(hour=venue.gaming_day_start_hour), tzinfo=zone)
    return start, end


def gaming_day_expression(field: str, *, venue: Venue | None = None):
    """SQL for the gaming day of a datetime column: the venue-local date of (time - start hour)."""
    venue = venue or venue_get()
    shifted = ExpressionWrapper(F(field) - timedelta(hours=venue.gaming_day_start_hour), DateTimeField())
    return TruncDate(shifted, tzinfo=venue_zone(venue))


def audit_list(
    *,
    action: str = "",
    object_type: str = "",
    object_id: str = "",
    actor_name: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[AuditRecord]:
    records = AuditRecord.objects.all()
    if action:
        records = records.filter(action=action)
    if object_type:
        records = records.filter(object_type=object_type)
    if object_id:
        records = records.filter(object_id=object_id)
    if actor_name:
        records = records.filter(actor_name__iexact=actor_name)
    if since:
        records = records.filter(at__gte=since)
    if until:
        records = records.filter(at__lt=until)
    return records


def audit_actions() -> list[str]:
    """The actions the trail holds records of (one index-only read)."""
    return list(AuditRecord.objects.order_by().values_list("action", flat=True).distinct())


def audit_object_types() -> list[str]:
    """The kinds of object the trail holds records of (one index-only read)."""
    return list(AuditRecord.objects.order_by().values_list("object_type", flat=True).distinct())
