"""Which venue the running code works for (VEN-1).

One installation serves the venues of one operator. A request works for one venue (its address,
its host name or the venue the staff member picked: cardroom.middleware.VenueMiddleware); a task
works for the venue that sent it (cardroom.celery.RoomTask). The venue is held in a context
variable for that time, as Django holds the active time zone and language, and:

- every venue-scoped model's default manager (`objects`) reads only the active venue's rows, so
  a request for another venue's object answers 404 wherever the code looks it up, and a new row
  names the active venue unless the code names one;
- `all_venues` reads every venue's rows, for the few readers that are the operator's: the
  consolidated reports, the player register's AML total, the books check;
- with no venue active (a management command, beat's reconcilers before they pick a venue, a
  test that calls a service directly) nothing is filtered and new rows go to the default venue,
  the first one, which is the only one of a single-room installation.

Venues change a few times a year and are read on every request: each process keeps the table of
venues for a few seconds (VENUE_CACHE_SECONDS); venue_update clears this process's copy at once.
"""

import time as clock
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.db import models

VENUE_CACHE_SECONDS = 5.0
# Where a staff member's pick of venue is kept for his session (cardroom.views.VenuePickView).
SESSION_VENUE = "cardroom_venue_id"

_active: ContextVar[int | None] = ContextVar("cardroom_venue", default=None)


@dataclass(frozen=True)
class _VenueTable:
    read_at: float
    by_pk: dict
    by_slug: dict
    by_host: dict
    default_pk: int


_table: _VenueTable | None = None
# The default venue's key alone, for new rows' `venue` when no venue is active: read on its own,
# so that a migration adding a venue column can fill it even when the Venue model has columns
# its table will only get from a later migration.
_default_pk: int | None = None


def _venues() -> _VenueTable:
    global _table
    if _table is not None and clock.monotonic() - _table.read_at < VENUE_CACHE_SECONDS:
        return _table
    venues = list(_venue_model().objects.order_by("pk"))
    if not venues:
        raise ImproperlyConfigured("The database has no venue: run `manage.py migrate`.")
    _table = _VenueTable(
        read_at=clock.monotonic(),
        by_pk={venue.pk: venue for venue in venues},
        by_slug={venue.slug: venue for venue in venues},
        by_host={host: venue for venue in venues for host in venue.host_name_list()},
        default_pk=venues[0].pk,
    )
    return _table


def _venue_model():
    """The Venue model, found by name: cardroom.models imports this module for its managers."""
    return apps.get_model("cardroom", "Venue")


def venue_cache_clear() -> None:
    global _table, _default_pk
    _table = None
    _default_pk = None


def venue_active_id() -> int | None:
    """The active venue's key, or None when no venue is active."""
    return _active.get()


def venue_current():
    """The active venue, or the default venue when none is active."""
    table = _venues()
    venue_id = _active.get()
    if venue_id is not None:
        venue = table.by_pk.get(venue_id)
        if venue is None:  # created in the last few seconds, or by this very test
            venue_cache_clear()
            venue = _venues().by_pk[venue_id]
        return venue
    return table.by_pk[table.default_pk]


def venue_default():
    table = _venues()
    return table.by_pk[table.default_pk]


def venue_by_pk(pk: int):
    venue = _venues().by_pk.get(pk)
    if venue is None:
        venue_cache_clear()
        venue = _venues().by_pk.get(pk)
    return venue


def venue_by_slug(slug: str):
    """The venue of an address name; a venue added in another process in the last few seconds
    is found too (the table is read again on a miss)."""
    venue = _venues().by_slug.get(slug)
    if venue is None:
        venue_cache_clear()
        venue = _venues().by_slug.get(slug)
    return venue


def venue_by_host(host: str):
    return _venues().by_host.get(host.lower())


def venue_all() -> list:
    return list(_venues().by_pk.values())


def venue_id_current() -> int:
    """The default of every venue-scoped row's `venue`: the active venue, else the default one."""
    global _default_pk
    venue_id = _active.get()
    if venue_id is not None:
        return venue_id
    if _default_pk is None:
        _default_pk = _venue_model().objects.order_by("pk").values_list("pk", flat=True).first()
        if _default_pk is None:
            raise ImproperlyConfigured("The database has no venue: run `manage.py migrate`.")
    return _default_pk


@contextmanager
def venue_activate(venue) -> Iterator[None]:
    """Work for `venue` (a Venue or its key; None: no venue) inside the block."""
    token = _active.set(getattr(venue, "pk", venue))
    try:
        yield
    finally:
        _active.reset(token)


class VenueQuerySet(models.QuerySet):
    def all(self):
        """Django's form fields and DRF's related fields keep a queryset built when their module
        was imported, with no venue active, and take `.all()` of it for each request: this is
        where the request's venue joins such a queryset."""
        rows = super().all()
        venue_id = _active.get()
        return rows if venue_id is None else rows.filter(venue_id=venue_id)


class VenueManager(models.Manager.from_queryset(VenueQuerySet)):
    """The default manager of a venue-scoped model: the active venue's rows only."""

    def get_queryset(self):
        rows = super().get_queryset()
        venue_id = _active.get()
        return rows if venue_id is None else rows.filter(venue_id=venue_id)


def venue_field() -> models.ForeignKey:
    """The `venue` column of a venue-scoped model (VEN-1)."""
    from django.utils.translation import gettext_lazy as _

    return models.ForeignKey(
        "cardroom.Venue",
        on_delete=models.PROTECT,
        related_name="+",
        default=venue_id_current,
        verbose_name=_("venue"),
    )


class VenueScoped(models.Model):
    """A row that belongs to one venue (VEN-1)."""

    venue = venue_field()

    objects = VenueManager()
    all_venues = models.Manager()  # noqa: DJ012 (a field of the models that inherit it)

    class Meta:
        abstract = True
