"""Chip counts during play (issue 27, item 3): what the floor counted at a seat, when and by whom.

The history is append-only: a new count of an entry supersedes the one before it and never
changes it. An entry's count is its latest row (the highest id: counts are written in the order
they are taken, under the tournament's lock). Chips are tournament chips, whole numbers."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.entries import Entry
from tournaments.models.seating import Table
from tournaments.models.tournament import Tournament


class ChipCount(VenueScoped):
    """One entry's chips as counted at his seat (TRN-10's deals start from the latest)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="chip_counts"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="chip_counts"
    )
    # Where he sat when counted: the table row and its number then, and the seat.
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="chip_counts"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    count = models.BigIntegerField(_("chips"))
    counted_at = models.DateTimeField(_("counted"))
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("counted by"),
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        ordering = ["tournament", "entry", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(count__gte=0), name="chip_count_not_negative"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="chip_count_seat"),
        ]
        indexes = [models.Index(fields=["tournament", "entry"], name="chip_count_tournament_entry")]

    def __str__(self) -> str:
        return f"{self.entry}: {self.count}"
