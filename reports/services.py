"""Writes of the reports app: only the rollups, rebuilt from the raw records on demand.

A gaming day's rollups are built together, in one transaction, and marked by a RolledUpDay:
per account (the ledger), per table, game and stakes (the hand log), per tournament and per
player. A posting dated into an ended day deletes that day's rollups (rollup_invalidate), so
the reports compute the day from the raw records until the beat task builds it again.
"""

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import Entry
from reports.models import AccountDayTotal, PlayerDayTotal, RolledUpDay, TableDayTotal, TournamentDayTotal
from reports.selectors.days import account_day_rows, player_day_rows, table_day_rows, tournament_day_rows

ROLLUP_MODELS = (AccountDayTotal, TableDayTotal, TournamentDayTotal, PlayerDayTotal)


@transaction.atomic
def rollup_build_day(*, day: date, now: datetime | None = None) -> int:
    """(Re)build one ended gaming day's rollups from the raw records. Idempotent. Returns the
    number of rows written."""
    now = now or timezone.now()
    if day >= gaming_day_of(now):
        raise DomainError("day_not_over", _("Gaming day %s has not ended yet.") % day.isoformat())
    start, end = gaming_day_bounds(day)
    # Lock the day's marker (or its absence) first, so two builders of one day queue up.
    RolledUpDay.objects.select_for_update().filter(day=day).first()
    for model in ROLLUP_MODELS:
        model.objects.filter(day=day).delete()
    accounts = AccountDayTotal.objects.bulk_create(
        [
            AccountDayTotal(
                day=day,
                account_id=row["account_id"],
                debit_cents=row["debit"],
                credit_cents=row["credit"],
                entry_count=row["count"],
            )
            for row in account_day_rows(start=start, end=end)
        ]
    )
    tables = TableDayTotal.objects.bulk_create(table_day_rows(day=day, now=now))
    tournaments = TournamentDayTotal.objects.bulk_create(tournament_day_rows(day=day))
    players = PlayerDayTotal.objects.bulk_create(player_day_rows(day=day, now=now), batch_size=2_000)
    RolledUpDay.objects.update_or_create(day=day, defaults={"built_at": now})
    return len(accounts) + len(tables) + len(tournaments) + len(players)


def rollup_build_missing(
    *, now: datetime | None = None, limit: int | None = 400, progress=None
) -> list[date]:
    """Build every ended gaming day that has no rollup yet, oldest first (at most `limit`; None:
    all). `progress(day, rows)` is called after each day (for the management commands)."""
    now = now or timezone.now()
    first = Entry.objects.aggregate(first=Min("created_at"))["first"]
    if first is None:
        return []
    today = gaming_day_of(now)
    day = gaming_day_of(first)
    done = set(RolledUpDay.objects.filter(day__gte=day).values_list("day", flat=True))
    built = []
    while day < today and (limit is None or len(built) < limit):
        if day not in done:
            rows = rollup_build_day(day=day, now=now)
            built.append(day)
            if progress is not None:
                progress(day, rows)
        day += timedelta(days=1)
    return built


def rollup_rebuild(*, start: date, end: date, now: datetime | None = None, progress=None) -> list[date]:
    """Rebuild the ended gaming days start..end (on demand, e.g. after a data repair)."""
    now = now or timezone.now()
    built = []
    day = start
    last = min(end, gaming_day_of(now) - timedelta(days=1))
    while day <= last:
        rows = rollup_build_day(day=day, now=now)
        built.append(day)
        if progress is not None:
            progress(day, rows)
        day += timedelta(days=1)
    return built


def rollup_invalidate(*, moment: datetime) -> None:
    """A posting dated into an ended gaming day (imports, corrections with an earlier time):
    that day's rollups are no longer final. They are deleted, the reports compute the day from
    the raw records, and the next scheduled run builds it again."""
    day = gaming_day_of(moment)
    if RolledUpDay.objects.filter(day=day).delete()[0]:
        for model in ROLLUP_MODELS:
            model.objects.filter(day=day).delete()
