"""Hand-for-hand (SER-3): each table's report that its hand of the round is done."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.seating import Table
from tournaments.models.tournament import Tournament


class HandReport(VenueScoped):
    """A table reports that its hand of hand-for-hand round `round` is done (SER-3). When every
    open table has reported, the clock pauses until the floor starts the next hand."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="hand_reports"
    )
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="hand_reports"
    )
    round = models.PositiveIntegerField(_("hand-for-hand round"))
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reported_at = models.DateTimeField(_("reported"))

    class Meta:
        verbose_name = _("hand-for-hand report")
        verbose_name_plural = _("hand-for-hand reports")
        ordering = ["tournament", "round", "table"]
        constraints = [
            # A table reports each round once (a second tap is refused, and this backs it).
            models.UniqueConstraint(
                fields=["venue", "tournament", "table", "round"], name="hand_report_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.table} #{self.round}"
