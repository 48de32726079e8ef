"""Celery tasks of the tournament clock (TRN-8): thin, idempotent, primitive arguments.

`clock_tick` is sent with an ETA at a level's end for precision; `clock_reconcile` runs from
beat every 2 seconds and does whatever is overdue, so a lost, late or duplicated message never
skips, repeats or loses a level: both re-check the schedule under the tournament's row lock.
"""

import time
from datetime import datetime

from celery import shared_task
from django.utils import timezone

from tournaments.services import clock, tickets

# A timer may fire a few milliseconds before the ETA; waiting that out beats leaving the rise
# to the reconciler up to 2 seconds later. Anything further off is not ours to wait for.
MAX_EARLY_WAIT_SECONDS = 2.0


@shared_task(
    name="tournaments.clock_tick", acks_late=True, ignore_result=True, time_limit=30, soft_time_limit=25
)
def clock_tick(tournament_id: int, due: str = "", **kwargs) -> int:
    if due:
        early = (datetime.fromisoformat(due) - timezone.now()).total_seconds()
        if 0 < early <= MAX_EARLY_WAIT_SECONDS:
            time.sleep(early)
    return clock.clock_advance_due(tournament_id=tournament_id, now=timezone.now())


@shared_task(
    name="tournaments.clock_reconcile", acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50
)
def clock_reconcile(**kwargs) -> dict[str, int]:
    return clock.clock_reconcile(now=timezone.now())


@shared_task(
    name="tournaments.tickets_expire", acks_late=True, ignore_result=True, time_limit=120, soft_time_limit=100
)
def tickets_expire(**kwargs) -> int:
    """SER-1: tickets past their expiry are closed in the books (the desk refuses them already)."""
    return tickets.tickets_expire_due(now=timezone.now())
