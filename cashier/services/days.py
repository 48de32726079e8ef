"""The ledger's closed gaming days: each account's debits and credits of a day that has ended,
summed once, so a balance after five years of hands costs what it costs after one day.

Only the cashier writes them: the beat task `cashier.ledger_days_close` closes every ended day,
and a posting dated into a closed day reopens it (ledger_post). Other apps may read the totals and
build on a closed day (the reports' rollups reference its LedgerDay), never tell the ledger
anything: reopening a day deletes what was built on it through those references.
"""

from collections.abc import Callable
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import AccountDayTotal, Entry, LedgerDay
from cashier.selectors import account_day_rows


@transaction.atomic
def ledger_day_close(*, day: date, now: datetime | None = None, rebuild: bool = False) -> LedgerDay:
    """Close one ended gaming day: its entries summed per account. Idempotent: a closed day is
    returned as it is, or with `rebuild` (after a data repair) reopened and summed again.

    Two closers of one day queue on the day's unique row; the second finds it closed.
    """
    now = now or timezone.now()
    if day >= gaming_day_of(now):
        raise DomainError("day_not_over", _("Gaming day %s has not ended yet.") % day.isoformat())
    if rebuild:
        ledger_day_reopen(day=day)
    closed, created = LedgerDay.objects.get_or_create(day=day, defaults={"closed_at": now})
    if created:
        start, end = gaming_day_bounds(day)
        AccountDayTotal.objects.bulk_create(
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
    return closed


def ledger_day_reopen(*, day: date) -> None:
    """A posting dated into an ended gaming day (an import, a correction with an earlier time):
    the day's totals are no longer its entries' sum. They are deleted, balances read the day from
    the entries, and the next beat run closes it again. Deleting the LedgerDay also deletes what
    other apps built on it (their foreign keys cascade): the ledger names none of them."""
    if LedgerDay.objects.filter(day=day).delete()[0]:
        AccountDayTotal.objects.filter(day=day).delete()


def ended_days_not_in(done_days, *, now: datetime, limit: int | None) -> list[date]:
    """The ended gaming days from the ledger's first entry on that `done_days` (a queryset of
    `day` values) does not hold, oldest first, at most `limit` (None: all). The ledger's day
    close and the reports' rollups both walk the days this way."""
    first = Entry.objects.aggregate(first=Min("created_at"))["first"]
    if first is None:
        return []
    today = gaming_day_of(now)
    day = gaming_day_of(first)
    done = set(done_days.filter(day__gte=day).values_list("day", flat=True))
    missing = []
    while day < today and (limit is None or len(missing) < limit):
        if day not in done:
            missing.append(day)
        day += timedelta(days=1)
    return missing


def ledger_days_close_missing(
    *,
    now: datetime | None = None,
    limit: int | None = 400,
    progress: Callable[[date], object] | None = None,
) -> list[date]:
    """Close every ended gaming day that is not closed, oldest first, from the ledger's first
    entry on (at most `limit`; None: all). `progress(day)` is called after each day."""
    now = now or timezone.now()
    closed = ended_days_not_in(LedgerDay.objects, now=now, limit=limit)
    for day in closed:
        ledger_day_close(day=day, now=now)
        if progress is not None:
            progress(day)
    return closed
