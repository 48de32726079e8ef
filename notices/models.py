"""Notices that reach a closed phone (NOT-1): the player's consent, the phones that asked for
Web Push, and a log of every notice sent.

Consent is its own record, apart from any marketing consent: who gave it, when, on which page,
with the words he was shown, and when he withdrew it. A player with a membership card consents
for himself (`player`); a phone joiner without one consents for the waiting-list entries his
status link names (`entries`).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class ConsentPage(models.TextChoices):
    PLAYER_PAGE = "player_page", _("the player's private page")
    WAITING_PAGE = "waiting_page", _("the waiting-list page")


class NoticeConsent(models.Model):
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="notice_consents"
    )
    entries = models.ManyToManyField("cashgame.WaitingEntry", blank=True, related_name="notice_consents")
    given_at = models.DateTimeField(_("given at"))
    given_on = models.CharField(_("given on"), max_length=20, choices=ConsentPage.choices)
    # The sentence the player agreed to, as he read it (in his language).
    consent_text = models.TextField(_("consent text"))
    language = models.CharField(_("language"), max_length=8)
    # The page a notice opens on a tap (the link he consented on; a path, the origin is the SW's).
    page_path = models.CharField(max_length=600)
    sms_number = models.CharField(_("SMS number"), max_length=20, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice consent")
        ordering = ["-given_at", "-pk"]

    def __str__(self) -> str:
        return f"consent {self.pk}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the PushSubscription the phone's browser made)."""

    consent = models.ForeignKey(NoticeConsent, on_delete=models.CASCADE, related_name="subscriptions")
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=30)  # the 16-byte auth secret, base64url
    language = models.CharField(_("language"), max_length=8)
    created_at = models.DateTimeField()
    # Withdrawn with the consent, or the push service said the subscription is gone (404/410).
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["consent", "endpoint"],
                condition=Q(ended_at__isnull=True),
                name="notices_one_live_subscription_per_endpoint",
            )
        ]

    def __str__(self) -> str:
        return f"push subscription {self.pk}"


class Channel(models.TextChoices):
    PUSH = "push", _("Web Push")
    SMS = "sms", _("SMS")


class NoticeKind(models.TextChoices):
    SEAT_READY = "seat_ready", _("seat ready")
    TOURNAMENT_START = "tournament_start", _("tournament starts")
    TOURNAMENT_BREAK = "tournament_break", _("tournament break")
    TABLE_DRAW = "table_draw", _("table draw")
    PAYOUT_READY = "payout_ready", _("payout ready")


class NoticeStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")
    # Not sent: the push service forgot the phone, or the news was stale before it could go.
    GONE = "gone", _("subscription gone")
    EXPIRED = "expired", _("too late to send")


class NoticeLog(VenueScoped):
    consent = models.ForeignKey(NoticeConsent, on_delete=models.CASCADE, related_name="notices")
    subscription = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    # What the news is about, e.g. "seat_ready:12:2026-12-06T21:00:00+00:00": a trigger that runs
    # twice writes (and sends) one notice per phone.
    about = models.CharField(max_length=120)
    to = models.CharField(_("to"), max_length=1000)  # the endpoint or the SMS number
    language = models.CharField(max_length=8)
    title = models.CharField(max_length=200)
    body = models.CharField(max_length=500)
    url = models.CharField(max_length=600)
    created_at = models.DateTimeField()
    # After this the news is stale (a seat hold that ended) and is not sent any more.
    expires_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=NoticeStatus.choices, default=NoticeStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["consent", "channel", "to", "about"], name="notices_once_per_news"
            ),
        ]
