"""Celery tasks of the notices (NOT-1): thin, idempotent, primitive arguments.

The floor's services send the triggers by name after their commit; each writes the notices
(once per piece of news) and queues `notices.deliver` for each. Delivery retries with
exponential backoff (5, 10, 20, 40 s) and then gives up, recording the last error: a notice
never waits on the floor and the floor never waits on a notice.
"""

from celery import shared_task
from django.utils import timezone

from notices import services

LIMITS = {"acks_late": True, "ignore_result": True, "time_limit": 60, "soft_time_limit": 50}


@shared_task(bind=True, name="notices.deliver", max_retries=services.MAX_ATTEMPTS - 1, **LIMITS)
def deliver(self, log_id: int, **kwargs) -> str:
    outcome = services.notice_deliver(log_id=log_id, now=timezone.now())
    if outcome == services.RETRY:
        raise self.retry(countdown=services.backoff_seconds(self.request.retries))
    return outcome


@shared_task(name="notices.seat_ready", **LIMITS)
def seat_ready(entry_id: int, **kwargs) -> int:
    return len(services.notices_seat_ready(entry_id=entry_id, now=timezone.now()))


@shared_task(name="notices.tournament_start", **LIMITS)
def tournament_start(tournament_id: int, **kwargs) -> int:
    return len(services.notices_tournament_start(tournament_id=tournament_id, now=timezone.now()))


@shared_task(name="notices.tournament_break", **LIMITS)
def tournament_break(tournament_id: int, level: int, ends: str, **kwargs) -> int:
    return len(
        services.notices_tournament_break(
            tournament_id=tournament_id, level=level, ends=ends, now=timezone.now()
        )
    )


@shared_task(name="notices.table_draw", **LIMITS)
def table_draw(tournament_id: int, **kwargs) -> int:
    return len(services.notices_table_draw(tournament_id=tournament_id, now=timezone.now()))


@shared_task(name="notices.payout_ready", **LIMITS)
def payout_ready(entry_id: int, **kwargs) -> int:
    return len(services.notices_payout_ready(entry_id=entry_id, now=timezone.now()))


@shared_task(
    name="notices.consents_end", acks_late=True, ignore_result=True, time_limit=120, soft_time_limit=100
)
def consents_end(**kwargs) -> int:
    return services.consents_end_after_lists(now=timezone.now())
