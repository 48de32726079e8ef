"""A colour-up's chip race as the table ran it (CHP-1): one row per table and colour-up."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.seating import Table
from tournaments.models.tournament import Tournament


class ColourUpRace(models.Model):
    """What the floor entered seat by seat, checked against the TDA race, and its result.

    `level_order` is the order of the level the leaving chips leave at. `seats` holds one row per
    seat: entry id, the leaving chips counted ({chip: count}), the card, and the chips up given
    (exchanged, won, saved). Chips are tournament chips."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="colour_up_races")
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="colour_up_races"
    )
    level_order = models.PositiveSmallIntegerField(_("level"))
    leaving = models.JSONField(_("chips leaving"))
    chip_up = models.PositiveIntegerField(_("chip up"))
    seats = models.JSONField(_("seats"))
    odd_total = models.PositiveIntegerField(_("odd chips"))
    raced = models.PositiveSmallIntegerField(_("chips raced"))
    chips_to_bring = models.PositiveIntegerField(_("chips to bring"))
    chips_back = models.PositiveIntegerField(_("chips back"))
    recorded_at = models.DateTimeField(_("recorded"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("chip race")
        verbose_name_plural = _("chip races")
        ordering = ["tournament", "level_order", "table"]
        constraints = [
            models.UniqueConstraint(fields=["table", "level_order"], name="colour_up_race_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} @ {self.level_order}"
