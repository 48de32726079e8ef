"""Dealers (DLR-1) and their rotation (DLR-2).

A dealer is a staff record (a name, and the user account when he has one). A shift is one
clock-in to clock-out. An assignment is one stretch at one table, or one break; the current
stretch has no `until` (a break's `until` is its planned end). A push is one planned move of
the rotation: stored with its time, sent by Celery at that time, and carried out once.
`Rotation` is the one row every rotation write locks, with what the last plan found.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models import CashTable
from tournaments.models import Table as TournamentTable


class Dealer(VenueScoped):
    name = models.CharField(_("name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dealer",
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("dealer")
        verbose_name_plural = _("dealers")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["venue", "name"], name="dealer_name_per_venue")]

    def __str__(self) -> str:
        return self.name


class Shift(VenueScoped):
    dealer = models.ForeignKey(
        Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="shifts"
    )
    clocked_in_at = models.DateTimeField(_("clocked in"))
    clocked_out_at = models.DateTimeField(_("clocked out"), null=True, blank=True)

    class Meta:
        verbose_name = _("dealer shift")
        verbose_name_plural = _("dealer shifts")
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(clocked_out_at__isnull=True), name="dealer_one_open_shift"
            ),
            models.CheckConstraint(
                condition=Q(clocked_out_at__isnull=True) | Q(clocked_out_at__gte=models.F("clocked_in_at")),
                name="dealer_shift_out_after_in",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} {self.clocked_in_at:%Y-%m-%d %H:%M}"


class AssignmentKind(models.TextChoices):
    TABLE = "table", _("At a table")
    BREAK = "break", _("On a break")


class Assignment(VenueScoped):
    """A stretch at one table (cash or tournament), or a break."""

    shift = models.ForeignKey(
        Shift, verbose_name=_("shift"), on_delete=models.PROTECT, related_name="assignments"
    )
    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=5, choices=AssignmentKind.choices)
    cash_table = models.ForeignKey(
        CashTable, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournament_table = models.ForeignKey(
        TournamentTable,
        verbose_name=_("tournament table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    since = models.DateTimeField(_("since"))
    until = models.DateTimeField(_("until"), null=True, blank=True)

    class Meta:
        verbose_name = _("dealer assignment")
        verbose_name_plural = _("dealer assignments")
        indexes = [models.Index(fields=["shift", "since"])]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="table", cash_table__isnull=False, tournament_table__isnull=True)
                    | Q(kind="table", cash_table__isnull=True, tournament_table__isnull=False)
                    | Q(
                        kind="break",
                        cash_table__isnull=True,
                        tournament_table__isnull=True,
                        until__isnull=False,
                    )
                ),
                name="dealer_assignment_one_place",
            ),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(until__gte=models.F("since")),
                name="dealer_assignment_ends",
            ),
            # No dealer at two tables at once, no two dealers at one table (DLR-2).
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(until__isnull=True), name="dealer_one_current_table"
            ),
            models.UniqueConstraint(
                fields=["cash_table"],
                condition=Q(until__isnull=True, cash_table__isnull=False),
                name="dealer_one_per_cash_table",
            ),
            models.UniqueConstraint(
                fields=["tournament_table"],
                condition=Q(until__isnull=True, tournament_table__isnull=False),
                name="dealer_one_per_tournament_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer_id} {self.kind} {self.since:%H:%M}"


class PushKind(models.TextChoices):
    DEAL = "deal", _("To a table")
    BREAK = "break", _("To a break")
    FREE = "free", _("Free")


class PushStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    DONE = "done", _("Done")
    SKIPPED = "skipped", _("Skipped")


class Push(VenueScoped):
    """One planned move: at `due_at`, the dealer goes to a table, a break or the free pool."""

    due_at = models.DateTimeField(_("due"))
    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=5, choices=PushKind.choices)
    cash_table = models.ForeignKey(
        CashTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournament_table = models.ForeignKey(
        TournamentTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    break_until = models.DateTimeField(_("break until"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=PushStatus.choices, default=PushStatus.PENDING
    )
    done_at = models.DateTimeField(_("done"), null=True, blank=True)
    plan = models.PositiveIntegerField(_("plan"))

    class Meta:
        verbose_name = _("push")
        verbose_name_plural = _("pushes")
        indexes = [models.Index(fields=["status", "due_at"])]

    def __str__(self) -> str:
        return f"{self.dealer_id} {self.kind} {self.due_at:%H:%M}"


class Rotation(VenueScoped):
    """The venue's one row (VEN-1) every rotation write locks: the last plan, its fingerprint of the room
    (the open tables and the dealers on shift), its gaps for the board and the ETA message sent."""

    plan = models.PositiveIntegerField(default=0)
    planned_at = models.DateTimeField(null=True, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    next_push_at = models.DateTimeField(null=True, blank=True)
    eta_at = models.DateTimeField(null=True, blank=True)
    gaps = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"rotation plan {self.plan}"
