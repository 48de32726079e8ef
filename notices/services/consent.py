"""A player asks for notices on his phone, adds a phone's Web Push subscription or an SMS
number, and withdraws it all on the same page (NOT-1). Every check runs before the first
write, so a refusal writes nothing; every change is audited."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.phones import phone_normalise
from cardroom.services import audit_record
from cashgame.models import WAITING_STATUSES
from cashgame.services.waiting_remote import PHONE_KEPT_AFTER
from notices.models import NoticeConsent, PushSubscription
from notices.push import endpoint_clean, keys_clean
from notices.selectors import consent_active_get
from notices.services.links import link_owner


def consent_text() -> str:
    """The sentence the player agrees to, in the active language (stored with his consent)."""
    return _(
        "Tell me on this phone when my seat is ready, when my tournament starts, breaks or draws "
        "my table, and when my payout is ready. Only these notices, never advertising. I can "
        "stop them here at any time."
    )


def _language() -> str:
    return (translation.get_language() or "en").split("-")[0]


@transaction.atomic
def consent_give(
    *, where: str, token: str, consent: bool, sms_number: str = "", now: datetime | None = None
) -> NoticeConsent:
    """Record the consent of the link's owner (or change his SMS number while it is in force)."""
    now = now or timezone.now()
    owner = link_owner(where=where, token=token)
    sms_number = phone_normalise(sms_number, rule="NOT-1")
    if not consent:
        raise DomainError("consent_required", _("Tick the box to agree to the notices first."), rule="NOT-1")
    record = consent_active_get(player_id=owner.player_id, entry_ids=owner.entry_ids)
    if record is not None:
        if record.sms_number != sms_number:
            # The audit trail says that the number changed, never the number (GDP-1 erases it).
            before = {"sms": bool(record.sms_number)}
            record.sms_number = sms_number
            record.save(update_fields=["sms_number"])
            audit_record(
                actor=None,
                action="notices.sms_number_set",
                obj=record,
                before=before,
                after={"sms": bool(sms_number)},
                now=now,
            )
        return record
    record = NoticeConsent.objects.create(
        player_id=owner.player_id,
        given_at=now,
        given_on=owner.page,
        consent_text=consent_text(),
        language=_language(),
        page_path=owner.page_path,
        sms_number=sms_number,
    )
    if owner.entry_ids:
        record.entries.set(owner.entry_ids)
    audit_record(
        actor=None,
        action="notices.consent_give",
        obj=record,
        after={"given_on": owner.page, "language": record.language, "sms": bool(sms_number)},
        note="given on the player's phone",
        now=now,
    )
    return record


@transaction.atomic
def subscription_add(
    *, where: str, token: str, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep this phone's Web Push subscription under the owner's consent in force."""
    now = now or timezone.now()
    owner = link_owner(where=where, token=token)
    endpoint = endpoint_clean(endpoint)
    p256dh, auth = keys_clean(p256dh, auth)
    record = consent_active_get(player_id=owner.player_id, entry_ids=owner.entry_ids)
    if record is None:
        raise DomainError(
            "consent_required",
            _("Agree to the notices first, then turn them on."),
            rule="NOT-1",
            status_code=409,
        )
    subscription = record.subscriptions.filter(endpoint=endpoint, ended_at__isnull=True).first()
    if subscription is not None:
        if (subscription.p256dh, subscription.auth, subscription.language) != (p256dh, auth, _language()):
            subscription.p256dh, subscription.auth, subscription.language = p256dh, auth, _language()
            subscription.save(update_fields=["p256dh", "auth", "language"])
        return subscription
    subscription = PushSubscription.objects.create(
        consent=record, endpoint=endpoint, p256dh=p256dh, auth=auth, language=_language(), created_at=now
    )
    audit_record(
        actor=None,
        action="notices.subscription_add",
        obj=subscription,
        after={"consent": record.pk, "language": subscription.language},
        now=now,
    )
    return subscription


@transaction.atomic
def consent_withdraw(*, where: str, token: str, now: datetime | None = None) -> NoticeConsent:
    """Withdraw the consent in force: no more notices, the SMS number and every subscription
    dropped. The record itself stays, to show when consent was given and withdrawn."""
    now = now or timezone.now()
    owner = link_owner(where=where, token=token)
    record = consent_active_get(player_id=owner.player_id, entry_ids=owner.entry_ids)
    if record is None:
        raise DomainError("no_consent", _("Notices are not on for this page."), rule="NOT-1", status_code=409)
    record = NoticeConsent.objects.select_for_update().get(pk=record.pk)
    before = {"withdrawn_at": None, "sms": bool(record.sms_number)}
    record.withdrawn_at = now
    record.sms_number = ""
    record.save(update_fields=["withdrawn_at", "sms_number"])
    ended = record.subscriptions.filter(ended_at__isnull=True).update(ended_at=now)
    audit_record(
        actor=None,
        action="notices.consent_withdraw",
        obj=record,
        before=before,
        after={"withdrawn_at": now, "subscriptions_ended": ended},
        note="withdrawn on the player's phone",
        now=now,
    )
    return record


@transaction.atomic
def consents_end_after_lists(*, now: datetime | None = None) -> int:
    """A phone joiner without a card consented for his entries only: 24 hours after the last of
    them left its list, his consent ends as if withdrawn, with his SMS number (WTL-3 keeps a
    joiner's phone number no longer). The number of consents ended; the beat runs it."""
    now = now or timezone.now()
    kept_after = now - PHONE_KEPT_AFTER
    ended = 0
    for record in NoticeConsent.objects.filter(player__isnull=True, withdrawn_at__isnull=True).order_by("pk"):
        entries = list(record.entries.values_list("status", "closed_at"))
        if any(
            status in WAITING_STATUSES or closed is None or closed > kept_after for status, closed in entries
        ):
            continue
        record.withdrawn_at = now
        record.sms_number = ""
        record.save(update_fields=["withdrawn_at", "sms_number"])
        record.subscriptions.filter(ended_at__isnull=True).update(ended_at=now)
        audit_record(
            actor=None,
            action="notices.consent_end",
            obj=record,
            after={"withdrawn_at": now},
            note="24 hours after the player's lists (WTL-3)",
            now=now,
        )
        ended += 1
    return ended
