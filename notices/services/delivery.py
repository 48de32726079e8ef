"""Delivering one notice (NOT-1): by Web Push to the phone's push service, or by SMS.

The attempt is counted and committed before the network is touched, so a worker that dies in
the middle still shows the attempt; the outcome is written after, in its own transaction. No
row lock is held while the push service or the SMS provider answers.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from cardroom.services import audit_record
from notices.models import Channel, NoticeLog, NoticeStatus
from notices.push import PushFailed, PushGone, push_send
from notices.sms import SmsFailed, sms_backend

# Sends before a notice is given up as failed (the first try and four retries).
MAX_ATTEMPTS = 5
RETRY = "retry"


def backoff_seconds(retries_done: int) -> int:
    """Seconds before the next try: 5, 10, 20, 40 … (a seat is held for minutes, not hours)."""
    return 5 * 2**retries_done


def payload(log: NoticeLog) -> dict:
    """What the service worker receives (static/notices/sw.js shows it)."""
    return {"title": log.title, "body": log.body, "url": log.url, "tag": f"{log.kind}-{log.consent_id}"}


def _attempt_begin(log_id: int, *, now: datetime) -> NoticeLog | None:
    with transaction.atomic():
        log = (
            NoticeLog.objects.select_for_update(of=("self",))
            .select_related("subscription", "consent")
            .filter(pk=log_id)
            .first()
        )
        if log is None or log.status != NoticeStatus.QUEUED:
            return None
        if log.consent.withdrawn_at is not None or (log.expires_at is not None and now >= log.expires_at):
            log.status = NoticeStatus.EXPIRED
            log.save(update_fields=["status"])
            return None
        log.attempts += 1
        log.save(update_fields=["attempts"])
        return log


@transaction.atomic
def _attempt_end(log: NoticeLog, *, status: str, error: str = "", now: datetime) -> None:
    log.status = status
    log.last_error = error[:500]
    log.sent_at = now if status == NoticeStatus.SENT else None
    log.save(update_fields=["status", "last_error", "sent_at"])
    if status == NoticeStatus.GONE and log.subscription is not None:
        log.subscription.ended_at = now
        log.subscription.save(update_fields=["ended_at"])
    if status in (NoticeStatus.FAILED, NoticeStatus.GONE):
        audit_record(
            actor=None,
            action=f"notices.notice_{status}",
            obj=log,
            after={"attempts": log.attempts, "error": log.last_error},
            now=now,
        )


def notice_deliver(*, log_id: int, now: datetime | None = None) -> str:
    """Try to deliver the notice once; its status after the try, or RETRY when it should be
    tried again later (the error is kept on the notice). Idempotent: a notice no longer
    queued is left alone."""
    now = now or timezone.now()
    log = _attempt_begin(log_id, now=now)
    if log is None:
        return NoticeLog.objects.filter(pk=log_id).values_list("status", flat=True).first() or ""
    try:
        if log.channel == Channel.PUSH:
            ttl = int((log.expires_at - now).total_seconds()) if log.expires_at else 24 * 3600
            push_send(
                endpoint=log.subscription.endpoint,
                p256dh=log.subscription.p256dh,
                auth=log.subscription.auth,
                payload=payload(log),
                ttl=ttl,
            )
        else:
            sms_backend().send(to=log.to, text=f"{log.title}. {log.body}")
    except PushGone as error:
        _attempt_end(log, status=NoticeStatus.GONE, error=str(error), now=timezone.now())
        return NoticeStatus.GONE
    except (PushFailed, SmsFailed) as error:
        if log.attempts >= MAX_ATTEMPTS:
            _attempt_end(log, status=NoticeStatus.FAILED, error=str(error), now=timezone.now())
            return NoticeStatus.FAILED
        _attempt_end(log, status=NoticeStatus.QUEUED, error=str(error), now=timezone.now())
        return RETRY
    _attempt_end(log, status=NoticeStatus.SENT, now=timezone.now())
    return NoticeStatus.SENT
