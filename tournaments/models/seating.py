"""Tournament tables and move slips (TRN-9)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.tournament import Tournament


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    BROKEN = "broken", _("Broken")


class Table(VenueScoped):
    """A tournament table (TRN-9). `break_rank` is the pre-drawn order of breaking (1 first)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    break_rank = models.PositiveSmallIntegerField(_("breaks as"))
    status = models.CharField(
        _("status"), max_length=6, choices=TableStatus.choices, default=TableStatus.OPEN
    )
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_table_number_unique"),
            models.CheckConstraint(
                condition=Q(seats__gte=2) & Q(seats__lte=10), name="tournament_table_seats"
            ),
        ]

    def __str__(self) -> str:
        return _("Table %d") % self.number


class MoveReason(models.TextChoices):
    BALANCE = "balance", _("Balancing")
    BREAK = "break", _("Table broken")
    FINAL = "final", _("Final table draw")
    LATE = "late", _("New table for late entries")
    OPEN = "open", _("New table opened by the floor")


class MoveSlip(VenueScoped):
    """A move slip for the floor (TRN-9): the seat already changed; the floor confirms the player moved.

    A player has at most one slip waiting: when a later move changes where they go before the
    floor confirmed it, the waiting slip is marked replaced and a new one runs from the same seat
    (the one the player still sits in), or none when the player ends in that seat."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="move_slips")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="move_slips")
    from_table = models.PositiveSmallIntegerField(_("from table"))
    from_seat = models.PositiveSmallIntegerField(_("from seat"))
    to_table = models.PositiveSmallIntegerField(_("to table"))
    to_seat = models.PositiveSmallIntegerField(_("to seat"))
    reason = models.CharField(_("reason"), max_length=8, choices=MoveReason.choices)
    # Players at the two tables just before this move, so the floor sees why it was made
    # ("table 3 has 9, table 5 has 7"); null on slips written before they were kept.
    from_table_players = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table_players = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(_("time"))
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    replaced_at = models.DateTimeField(_("replaced"), null=True, blank=True)

    class Meta:
        verbose_name = _("move slip")
        verbose_name_plural = _("move slips")
        ordering = ["tournament", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(confirmed_at__isnull=True, replaced_at__isnull=True),
                name="tournament_one_waiting_slip_per_entry",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(ft)d seat %(fs)d -> Table %(tt)d seat %(ts)d") % {
            "ft": self.from_table,
            "fs": self.from_seat,
            "tt": self.to_table,
            "ts": self.to_seat,
        }
