"""Waiting lists per game (CSH-7)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cashgame.models.games import CashTable, Game


class WaitSource(models.TextChoices):
    IN_PERSON = "in_person", _("In person")
    PHONE = "phone", _("By phone")


class WaitStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    CALLED = "called", _("Called")
    SEATED = "seated", _("Seated")
    PASSED = "passed", _("Did not come in time")
    REMOVED = "removed", _("Removed")


WAITING_STATUSES = (WaitStatus.WAITING, WaitStatus.CALLED)


class WaitingEntry(models.Model):
    """A player on a game's waiting list (CSH-7): first come, first seated; a called player holds
    the seat until `hold_until`, then the next is called (the ETA task and the reconciler)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="waiting")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="waiting_entries")
    source = models.CharField(
        _("added"), max_length=10, choices=WaitSource.choices, default=WaitSource.IN_PERSON
    )
    status = models.CharField(
        _("status"), max_length=10, choices=WaitStatus.choices, default=WaitStatus.WAITING
    )
    added_at = models.DateTimeField(_("added at"))
    called_at = models.DateTimeField(_("called at"), null=True, blank=True)
    hold_until = models.DateTimeField(_("holds the seat until"), null=True, blank=True, db_index=True)
    table = models.ForeignKey(CashTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("done at"), null=True, blank=True)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("waiting-list entry")
        verbose_name_plural = _("waiting-list entries")
        ordering = ["added_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=Q(status__in=["waiting", "called"]),
                name="waiting_once_per_game",
            ),
            models.CheckConstraint(
                condition=~Q(status="called") | Q(hold_until__isnull=False, table__isnull=False),
                name="waiting_called_has_hold",
            ),
        ]
        indexes = [models.Index(fields=["game", "status", "added_at"], name="waiting_game_queue")]

    def __str__(self) -> str:
        return f"{self.player} · {self.game}"
