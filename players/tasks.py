"""Celery tasks of the player registry: thin, idempotent, primitive arguments."""

from celery import shared_task
from django.utils import timezone

from players.services import data_rights


@shared_task(
    name="players.identities_destroy",
    acks_late=True,
    ignore_result=True,
    time_limit=300,
    soft_time_limit=270,
)
def identities_destroy(**kwargs) -> int:
    """GDP-1: sealed identities are destroyed once their retention is over (beat, hourly)."""
    return data_rights.identities_destroy(now=timezone.now())
