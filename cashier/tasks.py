from celery import shared_task

from cashier.services.days import ledger_days_close_missing


@shared_task(name="cashier.ledger_days_close", acks_late=True, time_limit=600, soft_time_limit=540)
def ledger_days_close(**kwargs) -> int:
    """Close the ledger's ended gaming days (idempotent: a closed day is skipped)."""
    return len(ledger_days_close_missing())
