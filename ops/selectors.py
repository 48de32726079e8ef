"""Every read behind /health/ and /metrics (OPS-2): facts the database holds, read when asked,
so a restart of any process loses none of them.

"Due" work is work whose stored time has come and that is not done yet: a running clock's level
end (TRN-8), a dealer's push (DLR-2), a called player's seat hold (CSH-7). The beat's
reconcilers do each within two seconds of its time, so work due for longer than `LATE_AFTER`
is late."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Min, Q

from cardroom.models import AuditRecord
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashgame.models import WaitingEntry, WaitStatus
from cashier.models import Posting, TransactionKind
from dealers.models import Push, PushStatus
from ops.models import BooksCheckRun, Heartbeat, TaskFailureCount
from tournaments.models import CLOCK_RUNNING, Tournament

# Due for longer than this is late: more than two of the reconcilers' 2-second periods.
LATE_AFTER = timedelta(seconds=5)
# What /metrics reports of work done: the last hour.
RECENT = timedelta(hours=1)
LEVEL_RISE, DEALER_PUSH, SEAT_HOLD = "level_rise", "dealer_push", "seat_hold"
OTHER_POSTINGS = "other"


@dataclass(frozen=True)
class Overdue:
    job: str
    due: int  # how many are due and not done
    late: int  # of those, how many are due for longer than LATE_AFTER
    oldest: datetime | None  # the time of the oldest of them


@dataclass(frozen=True)
class Done:
    job: str
    count: int  # done in the last hour
    late: int  # of those, done more than LATE_AFTER after their time
    max_lateness: float  # seconds; 0 when none
    last_lateness: float  # seconds, of the latest one; 0 when none


def heartbeats() -> dict[str, datetime]:
    """When the beat and a worker last showed they are alive: {"beat": ..., "worker": ...}."""
    return dict(Heartbeat.objects.values_list("name", "at"))


def _due(queryset, field: str, *, job: str, now: datetime) -> Overdue:
    row = queryset.filter(**{f"{field}__lte": now}).aggregate(
        due=Count("pk"), late=Count("pk", filter=Q(**{f"{field}__lt": now - LATE_AFTER})), oldest=Min(field)
    )
    return Overdue(job=job, due=row["due"], late=row["late"], oldest=row["oldest"])


def clock_overdue(*, now: datetime) -> Overdue:
    """Running clocks whose level has ended and not risen yet (TRN-8)."""
    return _due(Tournament.objects.filter(status__in=CLOCK_RUNNING), "level_ends_at", job=LEVEL_RISE, now=now)


def overdue_work(*, now: datetime) -> list[Overdue]:
    """Each job's work due and not done: level rises, dealers' pushes, seat holds run out."""
    return [
        clock_overdue(now=now),
        _due(Push.objects.filter(status=PushStatus.PENDING), "due_at", job=DEALER_PUSH, now=now),
        _due(WaitingEntry.objects.filter(status=WaitStatus.CALLED), "hold_until", job=SEAT_HOLD, now=now),
    ]


def _done(job: str, latenesses: list[float]) -> Done:
    late = sum(1 for seconds in latenesses if seconds > LATE_AFTER.total_seconds())
    return Done(
        job=job,
        count=len(latenesses),
        late=late,
        max_lateness=max(latenesses, default=0.0),
        last_lateness=latenesses[-1] if latenesses else 0.0,
    )


def recent_done(*, now: datetime) -> list[Done]:
    """How late the level rises and the dealers' pushes of the last hour were carried out.

    A rise's lateness is its audit record's time less the level's scheduled start (the clock
    starts each level at its predecessor's scheduled end, TRN-8); a push's is its done time less
    its due time."""
    rises = AuditRecord.objects.filter(action="clock.rise", at__gt=now - RECENT, at__lte=now).order_by(
        "at", "pk"
    )
    rise_lateness = [
        max((at - datetime.fromisoformat(after["level_started_at"])).total_seconds(), 0.0)
        for at, after in rises.values_list("at", "after")
    ]
    pushes = Push.objects.filter(status=PushStatus.DONE, done_at__gt=now - RECENT, done_at__lte=now)
    push_lateness = [
        max((done_at - due_at).total_seconds(), 0.0)
        for due_at, done_at in pushes.order_by("done_at", "pk").values_list("due_at", "done_at")
    ]
    return [_done(LEVEL_RISE, rise_lateness), _done(DEALER_PUSH, push_lateness)]


def postings_this_gaming_day(*, now: datetime) -> dict[str, int]:
    """The ledger's postings since the current gaming day began, by the cashier transaction's
    kind ("other" for the rest: floats, rake, transfers); every kind is named, zero or not."""
    start, _ = gaming_day_bounds(gaming_day_of(now))
    counts = dict.fromkeys([*TransactionKind.values, OTHER_POSTINGS], 0)
    rows = (
        Posting.objects.filter(created_at__gte=start, created_at__lte=now)
        .values_list("cashier_transaction__kind")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for kind, count in rows:
        counts[kind or OTHER_POSTINGS] += count
    return counts


def task_failures() -> list[TaskFailureCount]:
    return list(TaskFailureCount.objects.order_by("task"))


def books_check_last() -> BooksCheckRun | None:
    return BooksCheckRun.objects.order_by("-at", "-pk").first()
