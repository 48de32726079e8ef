"""The worker's heartbeat and its record of failed tasks (OPS-2).

`heartbeat` is sent by the beat every 5 seconds (CELERY_BEAT_SCHEDULE) and stamps the
"worker" heartbeat when a worker runs it: it shows the whole way works, beat to broker to worker
to database. It expires with its period, so a worker that is behind by more than that skips it
and /health/ sees the heartbeat age.

A failed task (its exception raised out of it) adds one to its count in the database, which
/metrics reads: the figure outlives the worker's restarts.
"""

import logging
import os
import socket

from celery import shared_task
from celery.signals import task_failure
from django.db import DatabaseError, connection
from django.utils import timezone

from ops.services import WORKER, heartbeat_stamp, task_failure_record

logger = logging.getLogger("cardroom.ops")
HEARTBEAT_EVERY = 5.0


@shared_task(name="ops.heartbeat", ignore_result=True, time_limit=10, soft_time_limit=8)
def heartbeat(**kwargs) -> None:
    heartbeat_stamp(name=WORKER, now=timezone.now(), by=f"{socket.gethostname()} pid {os.getpid()}")


@task_failure.connect(dispatch_uid="ops_task_failure_record")
def _record_failure(sender=None, **kwargs) -> None:
    name = getattr(sender, "name", None) or "unknown"
    try:
        # The failed task may have left its connection broken (the database went away). An
        # eager task (tests, CELERY_TASK_ALWAYS_EAGER) runs inside its caller's transaction,
        # which is not ours to close.
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()
        task_failure_record(task=name, now=timezone.now())
    except DatabaseError:
        logger.warning("could not record the failure of %s (the database is unavailable)", name)
