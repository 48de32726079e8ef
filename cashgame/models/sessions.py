"""Player sessions at a table and their events: buy-ins, top-ups, moves, cash-out (CSH-1..CSH-6)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.games import CashTable


class SeatState(models.TextChoices):
    AWAITING_BUY_IN = "awaiting_buy_in", _("Seat taken, waiting for the buy-in")
    WAITING_FOR_BUTTON = "waiting_for_button", _("New player: waits for the button")
    PLAYING = "playing", _("Playing")
    SITTING_OUT = "sitting_out", _("Sitting out")
    OWES_BLINDS = "owes_blinds", _("Owes blinds")
    # Final: the session ended with the cash-out (CSH-2); no seat action applies any more.
    ENDED = "ended", _("Left the table")


# The dealer's seat taps (CSH-5, CSH-6): action -> (the states it applies to, the state it leads
# to). The service applies them; the pages and the API offer only what a seat's state allows.
STATE_ACTIONS: dict[str, tuple[set[str], str]] = {
    "posted": ({SeatState.OWES_BLINDS, SeatState.WAITING_FOR_BUTTON}, SeatState.PLAYING),
    "button_passed": ({SeatState.WAITING_FOR_BUTTON}, SeatState.PLAYING),
    "sit_out": (
        {SeatState.PLAYING, SeatState.WAITING_FOR_BUTTON, SeatState.OWES_BLINDS},
        SeatState.SITTING_OUT,
    ),
    "missed_blinds": ({SeatState.SITTING_OUT}, SeatState.OWES_BLINDS),
    "back": ({SeatState.SITTING_OUT}, SeatState.PLAYING),
}


class PlayerSession(VenueScoped):
    """A player at a table from sitting down to cashing out (CSH-1..CSH-6).

    The totals are kept in step by the session services under the table's row lock; the
    individual buy-ins, top-ups, moves and the cash-out are SessionEvent rows.
    """

    table = models.ForeignKey(
        CashTable, verbose_name=_("table"), on_delete=models.PROTECT, related_name="sessions"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="cash_sessions"
    )
    state = models.CharField(_("state"), max_length=20, choices=SeatState.choices)
    started_at = models.DateTimeField(_("started"))
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    buy_in_cents = models.BigIntegerField(_("bought in"), default=0)
    top_up_cents = models.BigIntegerField(_("topped up"), default=0)
    cash_out_cents = models.BigIntegerField(_("cashed out"), null=True, blank=True)
    # The chips the dealer last counted in front of the player (top-up, stack report).
    last_counted_cents = models.BigIntegerField(_("chips last counted"), null=True, blank=True)
    # The dead small blind a player coming back posted (CSH-6), waiting for the next hand he is
    # dealt in: that hand takes it as dead money (POT-4) and clears it when it ends.
    dead_blind_cents = models.BigIntegerField(_("dead blind posted"), default=0)

    class Meta:
        verbose_name = _("player session")
        verbose_name_plural = _("player sessions")
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(ended_at__isnull=True), name="session_one_per_open_seat"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(ended_at__isnull=True), name="session_one_open_per_player"
            ),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=10), name="session_seat_1_to_10"),
            models.CheckConstraint(
                condition=Q(buy_in_cents__gte=0, top_up_cents__gte=0), name="session_totals_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(dead_blind_cents__gte=0), name="session_dead_blind_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="session_ends_after_start",
            ),
            models.CheckConstraint(
                condition=~Q(state="ended") | Q(ended_at__isnull=False), name="session_ended_state_has_end"
            ),
        ]
        # Reports read the sessions that ended in a gaming day (hours played).
        indexes = [models.Index(fields=["ended_at"], name="session_ended_at")]

    def __str__(self) -> str:
        return f"{self.player.full_name} · {self.table} {_('seat')} {self.seat}"

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    @property
    def invested_cents(self) -> int:
        return self.buy_in_cents + self.top_up_cents

    @property
    def result_cents(self) -> int | None:
        """Won (+) or lost (-) over the session, once cashed out."""
        if self.cash_out_cents is None:
            return None
        return self.cash_out_cents - self.invested_cents

    def time_played(self, now=None):
        return (self.ended_at or now or timezone.now()) - self.started_at


class SessionEventKind(models.TextChoices):
    SEATED = "seated", _("Seated")
    BUY_IN = "buy_in", _("Buy-in")
    TOP_UP = "top_up", _("Top-up")
    MOVE = "move", _("Seat or table change")
    STATE = "state", _("Seat state")
    CASH_OUT = "cash_out", _("Cash-out")
    # A buy-in, top-up or cash-out of the session reversed by a manager (CAG-6).
    CORRECTION = "correction", _("Correction")


class SessionEvent(models.Model):
    """One thing that happened in a session; money events link the cashier's transaction."""

    session = models.ForeignKey(PlayerSession, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(_("kind"), max_length=10, choices=SessionEventKind.choices)
    at = models.DateTimeField(_("time"))
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.BigIntegerField(_("amount"), null=True, blank=True)
    # At a top-up: the chips the dealer counted in front of the player at that moment (CSH-5).
    chips_on_table_cents = models.BigIntegerField(_("chips on the table"), null=True, blank=True)
    transaction = models.OneToOneField(
        "cashier.CashierTransaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    posting = models.OneToOneField(
        "cashier.Posting", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The chips that moved with the money (CHP-2): cage to the player at a buy-in or top-up,
    # back at a cash-out, and back again at a correction of either.
    chip_posting = models.OneToOneField(
        "chips.ChipPosting", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    detail = models.CharField(_("detail"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("session event")
        verbose_name_plural = _("session events")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.session_id}"
