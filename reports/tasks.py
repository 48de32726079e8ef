from celery import shared_task

from reports.services import rollup_build_missing


@shared_task(name="reports.rollup_missing", acks_late=True, time_limit=600, soft_time_limit=540)
def rollup_missing(**kwargs) -> int:
    """Build the rollups of ended gaming days (idempotent: a built day is skipped)."""
    return len(rollup_build_missing())
