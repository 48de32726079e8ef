"""The writes of the operator's records (OPS-2): heartbeats, task failures, books-check runs.

Each is one short statement or two, outside any game's lock; a process that cannot write (the
database is down) loses that one stamp, and the next one a few seconds later tells the truth."""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F

from ops.models import BooksCheckRun, Heartbeat, TaskFailureCount

BEAT = "beat"
WORKER = "worker"


def heartbeat_stamp(*, name: str, now: datetime, by: str = "") -> None:
    """The process `name` ("beat" or "worker") is alive at `now`."""
    if Heartbeat.objects.filter(name=name).update(at=now, by=by):
        return
    # The first stamp of an installation: two workers may race to create the row; the one that
    # loses stamps it instead.
    try:
        with transaction.atomic():
            Heartbeat.objects.create(name=name, at=now, by=by)
    except IntegrityError:
        Heartbeat.objects.filter(name=name).update(at=now, by=by)


def task_failure_record(*, task: str, now: datetime) -> None:
    """One more failure of the Celery task named `task` (its exception raised out of it)."""
    task = task[:120]
    if TaskFailureCount.objects.filter(task=task).update(failures=F("failures") + 1, last_failed_at=now):
        return
    try:
        with transaction.atomic():
            TaskFailureCount.objects.create(task=task, failures=1, last_failed_at=now)
    except IntegrityError:
        TaskFailureCount.objects.filter(task=task).update(failures=F("failures") + 1, last_failed_at=now)


@transaction.atomic
def books_check_record(*, checks: int, differences: int, now: datetime) -> BooksCheckRun:
    """A run of the books check made `checks` reconciliations, `differences` of which disagreed."""
    return BooksCheckRun.objects.create(at=now, checks=checks, differences=differences)


@transaction.atomic
def venue_open(*, actor, name: str, slug: str, time_zone: str = "Europe/Bratislava"):
    """A new venue of the operator, ready for its first night (VEN-1): the venue with the
    house's default settings and its own chip sets of each kind (CHP-1). Its staff get their
    roles in it from an administrator; its ledger accounts open with their first posting."""
    from cardroom.services import venue_create
    from chips.defaults import default_chip_sets_ensure

    venue = venue_create(actor=actor, name=name, slug=slug, time_zone=time_zone)
    default_chip_sets_ensure()
    return venue
