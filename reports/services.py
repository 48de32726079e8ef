"""Writes of the reports app: only the rollups, rebuilt from the raw records on demand.

A gaming day's rollups are built together, in one transaction, on the ledger's closed day
(cashier.services.ledger_day_close: the accounts' totals are the ledger's own) and marked by a
RolledUpDay: per table, game and stakes (the hand log), per tournament and per player. A posting
dated into an ended day reopens the ledger's day, which deletes the RolledUpDay and its rollups
through their foreign keys, so the reports compute the day from the raw records until the beat
task builds it again. The ledger never calls the reports.
"""

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_of
from cashier.services import ended_days_not_in, ledger_day_close
from reports.models import PlayerDayTotal, RolledUpDay, TableDayTotal, TournamentDayTotal
from reports.selectors.days import player_day_rows, table_day_rows, tournament_day_rows


@transaction.atomic
def rollup_build_day(*, day: date, now: datetime | None = None, rebuild_ledger: bool = False) -> int:
    """(Re)build one ended gaming day's rollups from the raw records, on the ledger's closed day
    (closed here if the ledger's beat task has not yet; with `rebuild_ledger`, summed again).
    Idempotent. Returns the number of rollup rows written."""
    now = now or timezone.now()
    if day >= gaming_day_of(now):
        raise DomainError("day_not_over", _("Gaming day %s has not ended yet.") % day.isoformat())
    # Lock the day's marker (or its absence) first, so two builders of one day queue up.
    RolledUpDay.objects.select_for_update().filter(day=day).first()
    ledger_day = ledger_day_close(day=day, now=now, rebuild=rebuild_ledger)
    RolledUpDay.objects.filter(day=day).delete()  # its rollups go with it (foreign keys)
    marker = RolledUpDay.objects.create(day=day, ledger_day=ledger_day, built_at=now)
    tables = table_day_rows(day=day, now=now)
    tournaments = tournament_day_rows(day=day)
    players = player_day_rows(day=day, now=now)
    for row in (*tables, *tournaments, *players):
        row.rolled_day = marker
    TableDayTotal.objects.bulk_create(tables)
    TournamentDayTotal.objects.bulk_create(tournaments)
    PlayerDayTotal.objects.bulk_create(players, batch_size=2_000)
    return len(tables) + len(tournaments) + len(players)


def rollup_build_missing(
    *, now: datetime | None = None, limit: int | None = 400, progress=None
) -> list[date]:
    """Build every ended gaming day that has no rollup yet, oldest first (at most `limit`; None:
    all). `progress(day, rows)` is called after each day (for the management commands)."""
    now = now or timezone.now()
    built = ended_days_not_in(RolledUpDay.objects, now=now, limit=limit)
    for day in built:
        rows = rollup_build_day(day=day, now=now)
        if progress is not None:
            progress(day, rows)
    return built


def rollup_rebuild(*, start: date, end: date, now: datetime | None = None, progress=None) -> list[date]:
    """Rebuild the ended gaming days start..end, the ledger's day totals included (on demand,
    e.g. after a data repair)."""
    now = now or timezone.now()
    built = []
    day = start
    last = min(end, gaming_day_of(now) - timedelta(days=1))
    while day <= last:
        rows = rollup_build_day(day=day, now=now, rebuild_ledger=True)
        built.append(day)
        if progress is not None:
            progress(day, rows)
        day += timedelta(days=1)
    return built
