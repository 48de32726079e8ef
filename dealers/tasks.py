"""Celery tasks of the dealer rotation (DLR-2): thin, idempotent, primitive arguments.

`push_due` is sent with an ETA at a push's time; `rotation_reconcile` runs from beat every 2
seconds, carries out whatever is overdue and replans when the room changed (a table opened or
closed, a tournament broke a table). Both settle under the rotation's lock, so a lost, late or
duplicated message never skips or repeats a push.
"""

import time
from datetime import datetime

from celery import shared_task
from django.utils import timezone

from dealers.services import rotation

# A timer may fire a few milliseconds early; waiting that out beats leaving the push to the
# reconciler up to 2 seconds later.
MAX_EARLY_WAIT_SECONDS = 2.0


@shared_task(name="dealers.push_due", acks_late=True, ignore_result=True, time_limit=30, soft_time_limit=25)
def push_due(due: str = "", **kwargs) -> dict[str, int]:
    if due:
        early = (datetime.fromisoformat(due) - timezone.now()).total_seconds()
        if 0 < early <= MAX_EARLY_WAIT_SECONDS:
            time.sleep(early)
    return rotation.rotation_settle(now=timezone.now())


@shared_task(
    name="dealers.rotation_reconcile", acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50
)
def rotation_reconcile(**kwargs) -> dict[str, int]:
    return rotation.rotation_settle(now=timezone.now())
