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
    # When the called player asked for more time from his phone (WTL-2): once per entry.
    more_time_at = models.DateTimeField(_("asked for more time"), null=True, blank=True)
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


class QueueEvent(models.TextChoices):
    JOIN = "join", _("Joined the list")
    CALL = "call", _("Called to a seat")
    MORE_TIME = "more_time", _("Asked for more time")
    NO_SHOW = "no_show", _("Did not come in time: moved to the end of the list")
    PASSED = "passed", _("Did not come in time again: off the list")
    SEAT = "seat", _("Seated")
    OVERRIDE = "override", _("Seated out of turn by the floor")
    REMOVE = "remove", _("Taken off the list by the floor")
    LEAVE = "leave", _("Left the list from the phone")
    CHECK_IN = "check_in", _("Checked in on arrival")


class QueueLogEntry(VenueScoped):
    """One change to a waiting list (WTL-1, WTL-2), append-only (a database trigger refuses
    UPDATE and DELETE): the queue's own history, so the floor can show a player in one look
    whether anybody went ahead of him, and why. The audit trail keeps who did what to any
    record; this log keeps the list's order of events, read per game."""

    entry = models.ForeignKey(WaitingEntry, on_delete=models.PROTECT, related_name="queue_log")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    event = models.CharField(_("what happened"), max_length=10, choices=QueueEvent.choices)
    at = models.DateTimeField(_("when"))
    # None: the player himself (from his phone) or the system (a hold that ran out).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    table = models.ForeignKey(CashTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The floor's reason for an override; the players he went ahead of, by entry id.
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    ahead_of = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("queue log entry")
        verbose_name_plural = _("queue log")
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["game", "at"], name="queue_log_game_at")]
