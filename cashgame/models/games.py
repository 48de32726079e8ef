"""Games and stakes (CSH-1, RAK-3, JKP-1/2, BET-3) and the tables that run them."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class GameType(models.TextChoices):
    NLHE = "nlhe", _("No-Limit Hold'em")
    PLHE = "plhe", _("Pot-Limit Hold'em")
    FLHE = "flhe", _("Fixed-Limit Hold'em")
    PLO = "plo", _("Pot-Limit Omaha")
    DRAW = "draw", _("Five-card draw")


class Game(VenueScoped):
    """A game at given stakes with its buy-in, rake and jackpot settings (CSH-1, RAK-3, JKP-1/2)
    and its betting house option (BET-3).

    Waiting lists are kept per game (CSH-7). Edited by managers only, every change audited.
    """

    name = models.CharField(_("name"), max_length=80)
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
    # BET-3 house option: an all-in raise of at least half a full raise reopens the betting.
    half_bet_rule = models.BooleanField(_("half-bet rule"), default=False)
    # WTL-2 interest list: while no table runs the game, the floor is prompted to open one as
    # soon as this many players wait (0: no prompt).
    interest_threshold = models.PositiveSmallIntegerField(_("open a table when this many wait"), default=0)
    # WTL-2 must-move: this game's players move to the main game, the longest seated first,
    # before anyone from the main game's own list.
    must_move_for = models.ForeignKey(
        "self",
        verbose_name=_("must-move game for"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="must_move_games",
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"))
    updated_at = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["big_blind_cents", "small_blind_cents", "name"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="game_name_per_venue"),
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


class HousePlayers(models.TextChoices):
    """Who the house has playing at a table, told to the public (the room page flags it)."""

    NONE = "", _("None")
    STAFF = "staff", _("Staff play here")
    PROPOSITION = "proposition", _("Proposition players play here")


class CashTable(VenueScoped):
    """A physical table running one game. Its chips are the ledger account "table:<id>"."""

    number = models.PositiveSmallIntegerField(_("table number"))
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
    # Shown on the public room page: players are told where the house's own people play.
    house_players = models.CharField(
        _("house players"), max_length=11, choices=HousePlayers.choices, default=HousePlayers.NONE, blank=True
    )

    class Meta:
        verbose_name = _("cash table")
        verbose_name_plural = _("cash tables")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "number"], name="cashtable_number_per_venue"),
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
