"""Drop-box counts against the rake of the hand log (RAK-5)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.games import CashTable


class DropBoxCount(VenueScoped):
    """RAK-5: the counted drop box of a table for a period, against the rake its hand log implies."""

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="drop_counts")
    period_start = models.DateTimeField(_("from"))
    period_end = models.DateTimeField(_("until"))
    counted_cents = models.BigIntegerField(_("counted"))
    expected_cents = models.BigIntegerField(_("rake in the hand log"))
    variance_cents = models.BigIntegerField(_("variance"))
    hands = models.PositiveIntegerField(_("hands raked"))
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField(_("recorded"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("drop-box count")
        verbose_name_plural = _("drop-box counts")
        ordering = ["-period_end", "table__number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(period_end__gt=models.F("period_start")), name="dropcount_period"
            ),
            models.CheckConstraint(condition=Q(counted_cents__gte=0), name="dropcount_counted_not_negative"),
            models.CheckConstraint(
                condition=Q(variance_cents=models.F("counted_cents") - models.F("expected_cents")),
                name="dropcount_variance_is_difference",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.period_start:%Y-%m-%d %H:%M}–{self.period_end:%H:%M}"
