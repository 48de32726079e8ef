"""The loyalty sweep (LOY-1): thin and idempotent; beat sends it every minute, once per venue."""

from celery import shared_task
from django.utils import timezone

from loyalty.services import points_award_due


@shared_task(
    name="loyalty.points_award", acks_late=True, ignore_result=True, time_limit=120, soft_time_limit=100
)
def points_award(**kwargs) -> int:
    """Award ended sessions and played entries, take back given-back entries, expire idle points."""
    return points_award_due(now=timezone.now())
