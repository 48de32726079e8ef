"""Tournament tickets (SER-1): a seat in a target tournament, won in a satellite or granted by a
manager. A ticket is worth the target's buy-in and is a liability of the house (the ledger's
"tournament tickets outstanding") until it is used for an entry, refunded or expires. It is used
once: the entry it paid is unique, and services change it only under its row lock
(tournaments.services._common.lock_ticket).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardroom.venues import VenueScoped
from tournaments.models.entries import Entry
from tournaments.models.tournament import Tournament


class TicketSource(models.TextChoices):
    SATELLITE = "satellite", _("Satellite")
    GRANT = "grant", _("Manager's grant")
    # LOY-1: a comp bought with a player's loyalty points.
    LOYALTY = "loyalty", _("Loyalty points")


class TicketStatus(models.TextChoices):
    ISSUED = "issued", pgettext_lazy("ticket", "valid")
    USED = "used", pgettext_lazy("ticket", "used")
    REFUNDED = "refunded", pgettext_lazy("ticket", "refunded")
    EXPIRED = "expired", pgettext_lazy("ticket", "expired")


class Ticket(VenueScoped):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("for tournament"), on_delete=models.PROTECT, related_name="tickets"
    )
    player = models.ForeignKey(
        "players.Player",
        verbose_name=_("holder"),
        on_delete=models.PROTECT,
        related_name="tournament_tickets",
    )
    # The target's whole buy-in (prize + fee + bounty) when the ticket was issued.
    value_cents = models.BigIntegerField(_("value (cents)"))
    source = models.CharField(_("source"), max_length=10, choices=TicketSource.choices)
    # A satellite's ticket: the finishing entry that won it (one ticket per winning entry).
    satellite_entry = models.OneToOneField(
        Entry,
        verbose_name=_("won by entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="won_ticket",
    )
    satellite_place = models.PositiveIntegerField(_("satellite place"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=TicketStatus.choices, default=TicketStatus.ISSUED
    )
    issued_at = models.DateTimeField(_("issued"))
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    # The entry it paid: one entry per ticket, so a ticket is never used twice.
    used_by = models.OneToOneField(
        Entry,
        verbose_name=_("used for entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ticket",
    )
    closed_at = models.DateTimeField(_("used, refunded or expired"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    refund_reason = models.CharField(_("refund reason"), max_length=200, blank=True)
    # The cage's payment of a refunded ticket (from refunds payable); empty until paid.
    refund_transaction = models.OneToOneField(
        "cashier.CashierTransaction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ticket_refund",
    )

    class Meta:
        verbose_name = _("tournament ticket")
        verbose_name_plural = _("tournament tickets")
        ordering = ["tournament", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(value_cents__gt=0), name="ticket_value_positive"),
            models.CheckConstraint(
                condition=Q(source="satellite", satellite_entry__isnull=False, satellite_place__isnull=False)
                | (Q(source__in=["grant", "loyalty"], satellite_entry__isnull=True) & ~Q(reason="")),
                name="ticket_source_consistent",
            ),
            models.CheckConstraint(
                condition=Q(status="used", used_by__isnull=False)
                | Q(~Q(status="used"), used_by__isnull=True),
                name="ticket_used_has_entry",
            ),
            models.CheckConstraint(
                condition=Q(status="issued", closed_at__isnull=True)
                | Q(~Q(status="issued"), closed_at__isnull=False),
                name="ticket_closed_when_not_issued",
            ),
            models.CheckConstraint(
                condition=~Q(status="refunded") | ~Q(refund_reason=""), name="ticket_refund_has_reason"
            ),
        ]
        indexes = [models.Index(fields=["player", "status"], name="ticket_player_status")]

    def __str__(self) -> str:
        return f"{_('Ticket')} #{self.pk} {self.tournament}"

    def is_valid_at(self, now) -> bool:
        return self.status == TicketStatus.ISSUED and (self.expires_at is None or now < self.expires_at)
