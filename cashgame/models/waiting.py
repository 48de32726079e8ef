"""Waiting lists per game (CSH-7)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.games import CashTable, Game


class WaitSource(models.TextChoices):
    IN_PERSON = "in_person", _("In person")
    PHONE = "phone", _("By phone")
    REMOTE = "remote", _("From the player's phone")


class WaitStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    CALLED = "called", _("Called")
    SEATED = "seated", _("Seated")
    PASSED = "passed", _("Did not come in time")
    REMOVED = "removed", _("Removed")


WAITING_STATUSES = (WaitStatus.WAITING, WaitStatus.CALLED)


class WaitingEntry(VenueScoped):
    """A player on a game's waiting list (CSH-7): first come, first seated; a called player holds
    the seat until `hold_until`, then moves to the end of the list once and is called again in
    his turn; a second miss takes him off it (WTL-2).

    A player who joins from his phone (WTL-1) gives a nickname and a phone number or his card:
    with a card the entry is the known player's; with a phone alone it has no player until the
    floor checks him in with his card on arrival. The phone number is kept while he is on the
    list and 24 hours after, then erased (WTL-3); so is the hashed network address he joined from.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="waiting")
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="waiting_entries"
    )
    nickname = models.CharField(_("nickname"), max_length=30, blank=True)
    phone = models.CharField(_("phone"), max_length=20, blank=True)
    # An HMAC of the network address a remote join came from: what the rate limit counts.
    join_address = models.CharField(max_length=64, blank=True, db_index=True)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    # How many holds he let pass (WTL-2): one moves him to the end of the list, two take him off.
    missed_calls = models.PositiveSmallIntegerField(_("calls missed"), default=0)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    source = models.CharField(
        _("added"), max_length=10, choices=WaitSource.choices, default=WaitSource.IN_PERSON
    )
    status = models.CharField(
        _("status"), max_length=10, choices=WaitStatus.choices, default=WaitStatus.WAITING
    )
    added_at = models.DateTimeField(_("added at"))
    called_at = models.DateTimeField(_("called at"), null=True, blank=True)
    hold_until = models.DateTimeField(_("holds the seat until"), null=True, blank=True, db_index=True)
    table = models.ForeignKey(
        CashTable, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(_("done at"), null=True, blank=True)
    # None: he joined from his phone.
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

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
            models.UniqueConstraint(
                fields=["game", "phone"],
                condition=Q(status__in=["waiting", "called"]) & ~Q(phone=""),
                name="waiting_phone_once_per_game",
            ),
            models.CheckConstraint(
                condition=~Q(status="called") | Q(hold_until__isnull=False, table__isnull=False),
                name="waiting_called_has_hold",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(nickname=""), name="waiting_someone_named"
            ),
        ]
        indexes = [models.Index(fields=["game", "status", "added_at"], name="waiting_game_queue")]

    def __str__(self) -> str:
        return f"{self.display_name} · {self.game}"

    @property
    def display_name(self) -> str:
        """What the floor calls him: the player's full name, or the nickname of a phone join."""
        return self.player.full_name if self.player_id else self.nickname

    @property
    def is_remote(self) -> bool:
        return self.source == WaitSource.REMOTE
