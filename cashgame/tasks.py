"""Celery tasks of the waiting lists (CSH-7): thin, idempotent, primitive arguments.

`waiting_pass_due` is sent with an ETA at the end of a called player's hold; `waiting_reconcile`
runs from beat every 2 seconds and passes whatever is overdue. Both re-check under the game's
row lock, so a lost, late or duplicated message never skips or repeats a call.
"""

import time
from datetime import datetime

from celery import shared_task
from django.utils import timezone

from cashgame.services import highhand, waiting, waiting_remote

# A timer may fire a few milliseconds early; waiting that out beats leaving the call to the
# reconciler up to 2 seconds later.
MAX_EARLY_WAIT_SECONDS = 2.0


@shared_task(
    name="cashgame.waiting_pass_due", acks_late=True, ignore_result=True, time_limit=30, soft_time_limit=25
)
def waiting_pass_due(entry_id: int, due: str = "", **kwargs) -> bool:
    if due:
        early = (datetime.fromisoformat(due) - timezone.now()).total_seconds()
        if 0 < early <= MAX_EARLY_WAIT_SECONDS:
            time.sleep(early)
    return waiting.waiting_pass_due(entry_id=entry_id, now=timezone.now())


@shared_task(
    name="cashgame.waiting_reconcile", acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50
)
def waiting_reconcile(**kwargs) -> dict[str, int]:
    return waiting.waiting_reconcile(now=timezone.now())


@shared_task(
    name="cashgame.waiting_phones_erase",
    acks_late=True,
    ignore_result=True,
    time_limit=120,
    soft_time_limit=100,
)
def waiting_phones_erase(**kwargs) -> int:
    """WTL-3: phone numbers are kept while the player is on a list and 24 hours after."""
    return waiting_remote.waiting_phones_erase(now=timezone.now())


@shared_task(
    name="cashgame.high_hand_sweep", acks_late=True, ignore_result=True, time_limit=120, soft_time_limit=100
)
def high_hand_sweep(**kwargs) -> int:
    """LOY-2: settle every high-hand period that has ended (once: a settled period is left)."""
    return highhand.highhand_sweep(now=timezone.now())
