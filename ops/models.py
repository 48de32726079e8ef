"""What the operator's endpoints read that no game records: the heartbeats of the beat and the
workers, how often each task failed, and the last books checks (OPS-2).

None of these is money, seating or the clock, so none has an audit record; they are written by
the processes themselves (ops/services.py)."""

from django.db import models
from django.db.models import Q


class Heartbeat(models.Model):
    """The last sign of life of a kind of process: "beat" (the beat that runs the schedule) or
    "worker" (any worker that ran the heartbeat task). One row each, stamped every few
    seconds."""

    name = models.CharField(max_length=20, primary_key=True)
    at = models.DateTimeField()
    # Which process stamped it ("host pid 123"), for the operator's own look in the database;
    # never shown by /health/.
    by = models.CharField(max_length=120, blank=True)

    def __str__(self) -> str:
        return f"{self.name} {self.at:%Y-%m-%d %H:%M:%S}"


class TaskFailureCount(models.Model):
    """How many times a Celery task failed (raised) since the installation began: a counter
    that survives the worker's restarts, read by /metrics."""

    task = models.CharField(max_length=120, primary_key=True)
    failures = models.PositiveBigIntegerField(default=0)
    last_failed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.task} {self.failures}"


class BooksCheckRun(models.Model):
    """One run of the books check (`manage.py check_books`): how many reconciliations it made
    and how many found a difference. /metrics reads the last one."""

    at = models.DateTimeField(db_index=True)
    checks = models.PositiveIntegerField()
    differences = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(differences__lte=models.F("checks")), name="books_check_run_counts"
            )
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.differences}/{self.checks}"
