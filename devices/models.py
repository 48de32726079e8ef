"""Dealer tablets (ROL-2): a device paired to one cash table by a manager's one-time code.

Neither the pairing code nor the tablet's token is stored: only their keyed hashes, so a copy of
the database pairs no tablet and impersonates none.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models import CashTable


class Device(VenueScoped):
    """A tablet paired to one table. Its user (in the dealer-tablet group only, no password) is
    the actor of what it logs; unpairing keeps the row and that user for the hand log's history."""

    table = models.ForeignKey(
        CashTable, verbose_name=_("table"), on_delete=models.PROTECT, related_name="devices"
    )
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="device")
    # HMAC-SHA256 of the token in the tablet's cookie (devices.services.token_hash).
    token_hash = models.CharField(max_length=64, unique=True)
    paired_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paired_at = models.DateTimeField(_("paired"))
    user_agent = models.CharField(_("browser"), max_length=200, blank=True)
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    unpaired_at = models.DateTimeField(_("unpaired"), null=True, blank=True)
    unpaired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("dealer tablet")
        verbose_name_plural = _("dealer tablets")
        ordering = ["table__number", "-paired_at"]
        constraints = [
            # One tablet per table: pairing a new one unpairs the old one (devices.services).
            models.UniqueConstraint(
                fields=["table"], condition=Q(unpaired_at__isnull=True), name="device_one_per_table"
            ),
        ]

    def __str__(self) -> str:
        return str(_("Tablet at table %(number)s") % {"number": self.table.number})

    @property
    def is_paired(self) -> bool:
        return self.unpaired_at is None


class PairingCode(VenueScoped):
    """A code a manager shows once to pair a tablet to a table: it expires and is used once."""

    table = models.ForeignKey(CashTable, verbose_name=_("table"), on_delete=models.PROTECT, related_name="+")
    # HMAC-SHA256 of the code as typed without dashes or spaces (devices.services.code_hash).
    code_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created"))
    expires_at = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    device = models.OneToOneField(
        Device, null=True, blank=True, on_delete=models.PROTECT, related_name="pairing_code"
    )

    class Meta:
        verbose_name = _("pairing code")
        verbose_name_plural = _("pairing codes")
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=models.F("created_at")), name="pairing_code_expires"
            ),
            models.CheckConstraint(
                condition=Q(used_at__isnull=True, device__isnull=True)
                | Q(used_at__isnull=False, device__isnull=False),
                name="pairing_code_used_pairs_a_device",
            ),
        ]

    def __str__(self) -> str:
        # Never the code: it is not kept.
        return str(_("Pairing code for table %(number)s") % {"number": self.table.number})
