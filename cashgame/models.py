"""Cash games: games and stakes (CSH-1, RAK-3, JKP-1, JKP-2), tables, player sessions with their
buy-ins, top-ups and cash-out (CSH-2..CSH-6), the hand log with rake and jackpot drop (RAK-1..RAK-4),
drop-box counts (RAK-5), bad-beat jackpot claims (JKP-3), waiting lists (CSH-7) and the floor's
rulings log (FLR-5).

Money is integer cents. The chips on a table live in the ledger account CHIPS_IN_PLAY owned by
"table:<CashTable id>"; the models here keep the game's own record and link to the cashier's
transactions and postings.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class GameType(models.TextChoices):
    NLHE = "nlhe", _("No-Limit Hold'em")
    PLHE = "plhe", _("Pot-Limit Hold'em")
    FLHE = "flhe", _("Fixed-Limit Hold'em")
    PLO = "plo", _("Pot-Limit Omaha")
    DRAW = "draw", _("Five-card draw")


class Game(models.Model):
    """A game at given stakes with its buy-in, rake and jackpot settings (CSH-1, RAK-3, JKP-1/2).

    Waiting lists are kept per game (CSH-7). Edited by managers only, every change audited.
    """

    name = models.CharField(_("name"), max_length=80, unique=True)
    game_type = models.CharField(_("game"), max_length=10, choices=GameType.choices)
    small_blind_cents = models.BigIntegerField(_("small blind"))
    big_blind_cents = models.BigIntegerField(_("big blind"))
    min_buy_in_cents = models.BigIntegerField(_("minimum buy-in"))
    max_buy_in_cents = models.BigIntegerField(_("maximum buy-in"), null=True, blank=True)
    rake_rate_bp = models.PositiveIntegerField(_("rake rate (basis points)"), default=500)
    rake_cap_cents = models.BigIntegerField(_("rake cap per hand"), default=500)
    rake_rounding_cents = models.BigIntegerField(_("rake rounded down to"), default=50)
    jackpot_small_blind_cents = models.BigIntegerField(_("jackpot stakes: small blind"), default=100)
    jackpot_big_blind_cents = models.BigIntegerField(_("jackpot stakes: big blind"), default=200)
    jackpot_min_players = models.PositiveSmallIntegerField(_("jackpot: players dealt in at least"), default=4)
    jackpot_drop_cents = models.BigIntegerField(_("jackpot drop"), default=100)
    jackpot_threshold_cents = models.BigIntegerField(_("jackpot drop from a pot of"), default=2000)
    seat_hold_seconds = models.PositiveIntegerField(_("called player holds the seat (seconds)"), default=180)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"))
    updated_at = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["big_blind_cents", "small_blind_cents", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(small_blind_cents__gt=0, big_blind_cents__gte=models.F("small_blind_cents")),
                name="game_blinds_ordered",
            ),
            models.CheckConstraint(condition=Q(min_buy_in_cents__gt=0), name="game_min_buy_in_positive"),
            models.CheckConstraint(
                condition=Q(max_buy_in_cents__isnull=True)
                | Q(max_buy_in_cents__gte=models.F("min_buy_in_cents")),
                name="game_max_buy_in_over_min",
            ),
            models.CheckConstraint(condition=Q(rake_rate_bp__lte=10_000), name="game_rake_rate_max_100"),
            models.CheckConstraint(
                condition=Q(rake_cap_cents__gte=0, rake_rounding_cents__gt=0), name="game_rake_cap_rounding"
            ),
            models.CheckConstraint(
                condition=Q(jackpot_drop_cents__gte=0, jackpot_threshold_cents__gte=0),
                name="game_jackpot_amounts",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def jackpot_stakes(self) -> bool:
        """The game's stakes are the jackpot's (JKP-1); the hand still needs enough players."""
        return (self.small_blind_cents, self.big_blind_cents) == (
            self.jackpot_small_blind_cents,
            self.jackpot_big_blind_cents,
        )


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class CashTable(models.Model):
    """A physical table running one game. Its chips are the ledger account "table:<id>"."""

    number = models.PositiveSmallIntegerField(_("table number"), unique=True)
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="tables")
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    status = models.CharField(
        _("status"), max_length=10, choices=TableStatus.choices, default=TableStatus.CLOSED
    )
    # Kept in step with the hand log under the table's row lock (CSH-3 reads it).
    hand_in_progress = models.BooleanField(_("hand in progress"), default=False)
    hands_dealt = models.PositiveIntegerField(_("hands dealt"), default=0)
    opened_at = models.DateTimeField(_("opened"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("cash table")
        verbose_name_plural = _("cash tables")
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=10), name="cashtable_seats_2_to_10"),
            models.CheckConstraint(
                condition=Q(status="open") | Q(hand_in_progress=False), name="cashtable_closed_no_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number}"

    @property
    def reference(self) -> str:
        """The owner of the table's chips-in-play account and the cashier's reference."""
        return f"table:{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status == TableStatus.OPEN


class SeatState(models.TextChoices):
    AWAITING_BUY_IN = "awaiting_buy_in", _("Seat taken, waiting for the buy-in")
    WAITING_FOR_BUTTON = "waiting_for_button", _("New player: waits for the button")
    PLAYING = "playing", _("Playing")
    SITTING_OUT = "sitting_out", _("Sitting out")
    OWES_BLINDS = "owes_blinds", _("Owes blinds")


class PlayerSession(models.Model):
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
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="session_ends_after_start",
            ),
        ]

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
        from django.utils import timezone

        return (self.ended_at or now or timezone.now()) - self.started_at


class SessionEventKind(models.TextChoices):
    SEATED = "seated", _("Seated")
    BUY_IN = "buy_in", _("Buy-in")
    TOP_UP = "top_up", _("Top-up")
    MOVE = "move", _("Seat or table change")
    STATE = "state", _("Seat state")
    CASH_OUT = "cash_out", _("Cash-out")


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
    detail = models.CharField(_("detail"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("session event")
        verbose_name_plural = _("session events")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.session_id}"


class HandStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    ENDED = "ended", _("Ended")
    VOIDED = "voided", _("Void")


class VoidReason(models.TextChoices):
    MISDEAL = "misdeal", _("Misdeal (FLR-1)")
    DUPLICATE_CARD = "duplicate_card", _("Duplicate card (FLR-2)")


class Hand(models.Model):
    """One hand in the dealer's log: who was dealt in, whether it saw a flop (or the draw), the
    final pot, and the rake and jackpot drop posted for it (RAK-1..RAK-4, JKP-1, JKP-2)."""

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("hand"))
    status = models.CharField(
        _("status"), max_length=12, choices=HandStatus.choices, default=HandStatus.IN_PROGRESS
    )
    # [[seat, player id], ...] in seat order: kept with the hand, as sessions move on.
    dealt_in = models.JSONField(_("dealt in"), default=list)
    players_dealt = models.PositiveSmallIntegerField(_("players dealt in"))
    button_seat = models.PositiveSmallIntegerField(_("button"), null=True, blank=True)
    # The stakes the hand was dealt at (JKP-1 is decided on them, whatever the game is later).
    small_blind_cents = models.BigIntegerField()
    big_blind_cents = models.BigIntegerField()
    saw_flop = models.BooleanField(_("flop (or draw) dealt"), default=False)
    pot_cents = models.BigIntegerField(_("pot"), null=True, blank=True)
    rake_cents = models.BigIntegerField(_("rake"), default=0)
    jackpot_drop_cents = models.BigIntegerField(_("jackpot drop"), default=0)
    void_reason = models.CharField(_("void because"), max_length=20, choices=VoidReason.choices, blank=True)
    posting = models.OneToOneField(
        "cashier.Posting", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(_("started"))
    flop_at = models.DateTimeField(_("flop"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True, db_index=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="in_progress"), name="hand_one_in_progress_per_table"
            ),
            models.CheckConstraint(
                condition=Q(pot_cents__isnull=True) | Q(pot_cents__gt=0), name="hand_pot_positive"
            ),
            models.CheckConstraint(
                condition=Q(rake_cents__gte=0, jackpot_drop_cents__gte=0), name="hand_fees_not_negative"
            ),
            models.CheckConstraint(
                condition=~Q(status="ended") | Q(pot_cents__isnull=False), name="hand_ended_has_pot"
            ),
            models.CheckConstraint(
                condition=~Q(status="voided") | Q(rake_cents=0, jackpot_drop_cents=0),
                name="hand_void_no_fees",
            ),
        ]
        indexes = [models.Index(fields=["table", "status", "ended_at"], name="hand_table_status_end")]

    def __str__(self) -> str:
        return f"{_('Table')} {self.table.number if self.table_id else '?'} #{self.number}"

    @property
    def dealt_seats(self) -> list[int]:
        return [seat for seat, _player in self.dealt_in]

    def player_at(self, seat: int) -> int | None:
        for dealt_seat, player_id in self.dealt_in:
            if dealt_seat == seat:
                return player_id
        return None


class DropBoxCount(models.Model):
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


class JackpotClaim(models.Model):
    """A bad-beat jackpot won on a hand (JKP-3): the cards as the floor entered them, the hands
    the evaluator found, and the split of the fund at that moment. One claim per hand."""

    hand = models.OneToOneField(Hand, on_delete=models.PROTECT, related_name="jackpot_claim")
    loser_seat = models.PositiveSmallIntegerField(_("losing seat"))
    winner_seat = models.PositiveSmallIntegerField(_("winning seat"))
    loser_cards = models.CharField(_("losing hole cards"), max_length=8)
    winner_cards = models.CharField(_("winning hole cards"), max_length=8)
    board = models.CharField(_("board"), max_length=20)
    loser_hand = models.CharField(_("losing hand"), max_length=40)
    winner_hand = models.CharField(_("winning hand"), max_length=40)
    fund_cents = models.BigIntegerField(_("jackpot"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("recorded"))

    class Meta:
        verbose_name = _("jackpot claim")
        verbose_name_plural = _("jackpot claims")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(fund_cents__gt=0), name="jackpot_claim_fund_positive")
        ]

    def __str__(self) -> str:
        return f"{_('Jackpot')} {self.hand}"


class ShareRole(models.TextChoices):
    LOSER = "loser", _("Losing hand (50 %)")
    WINNER = "winner", _("Winning hand (25 %)")
    TABLE = "table", _("Table share")


class JackpotShare(models.Model):
    """One player's share of a claim, paid in cash by a cashier from the jackpot fund."""

    claim = models.ForeignKey(JackpotClaim, on_delete=models.PROTECT, related_name="shares")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="jackpot_shares")
    role = models.CharField(_("share"), max_length=10, choices=ShareRole.choices)
    amount_cents = models.BigIntegerField(_("amount"))
    transaction = models.OneToOneField(
        "cashier.CashierTransaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)

    class Meta:
        verbose_name = _("jackpot share")
        verbose_name_plural = _("jackpot shares")
        ordering = ["claim", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "player"], name="jackpot_share_one_per_player"),
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="jackpot_share_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} {self.amount_cents}"


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


class Ruling(models.Model):
    """FLR-5: every ruling logged: table, hand, situation, rule applied, decision, staff, time."""

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="rulings")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    situation = models.CharField(_("situation"), max_length=40)
    rule = models.CharField(_("rule"), max_length=10)
    decision = models.TextField(_("decision"))
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("time"), db_index=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.rule} {self.situation} {self.table}"
