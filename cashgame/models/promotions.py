"""High-hand promotions (LOY-2): the promotion a manager defines, its periods, the drops taken
from qualifying pots into its fund, the floor's claims and the awards the cage pays.

The fund is the ledger account PROMOTION_FUND owned by "promotion:<id>": credited by the drops
(in the hand's own posting) and by the house when a period's prize is more than the fund holds,
debited by the awards the cage pays. The books check (reports) compares it with these rows.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.games import CashTable, Game
from cashgame.models.hands import Hand


class MinimumHand(models.IntegerChoices):
    """The weakest hand a promotion accepts (poker.hands.HandCategory values)."""

    ANY = 0, _("Any hand")
    STRAIGHT = 4, _("Straight")
    FLUSH = 5, _("Flush")
    FULL_HOUSE = 6, _("Full house")
    FOUR_OF_A_KIND = 7, _("Four of a kind")
    STRAIGHT_FLUSH = 8, _("Straight flush")


class Promotion(VenueScoped):
    """A high-hand promotion: the games it covers, the hours and period length it runs in the
    venue's time, the prize each period pays, what a hand needs to qualify, and the drop each
    qualifying pot pays into its fund."""

    name = models.CharField(_("name"), max_length=80)
    games = models.ManyToManyField(Game, verbose_name=_("games and stakes"), related_name="promotions")
    starts_at = models.TimeField(_("first period starts"))
    ends_at = models.TimeField(_("last period ends"))  # at or before the start: the next day
    period_minutes = models.PositiveIntegerField(_("period length (minutes)"), default=60)
    prize_cents = models.BigIntegerField(_("prize per period"))
    both_hole_cards = models.BooleanField(_("both hole cards must play"), default=True)
    min_hand = models.PositiveSmallIntegerField(_("minimum hand"), choices=MinimumHand.choices, default=0)
    min_pot_cents = models.BigIntegerField(_("minimum pot"), default=0)
    min_players = models.PositiveSmallIntegerField(_("players dealt in at least"), default=2)
    drop_cents = models.BigIntegerField(_("drop per qualifying pot"), default=0)
    active = models.BooleanField(_("running"), default=True)
    created_at = models.DateTimeField(_("created"))
    updated_at = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("high-hand promotion")
        verbose_name_plural = _("high-hand promotions")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="promotion_name_per_venue"),
            models.CheckConstraint(
                condition=Q(prize_cents__gt=0, min_pot_cents__gte=0, drop_cents__gte=0),
                name="promotion_amounts",
            ),
            models.CheckConstraint(
                condition=Q(period_minutes__gte=5, period_minutes__lte=1440), name="promotion_period_length"
            ),
            models.CheckConstraint(condition=Q(min_players__gte=2), name="promotion_min_players"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reference(self) -> str:
        """The owner of the promotion's fund account in the ledger."""
        return f"promotion:{self.pk}"


class PeriodStatus(models.TextChoices):
    OPEN = "open", _("Open")
    WON = "won", _("Won")
    CARRIED = "carried", _("Carried over")


class PromotionPeriod(models.Model):
    """One period of a promotion. Its prize is the promotion's prize plus what the periods
    before it carried over; settled once, at its end, by the sweep."""

    promotion = models.ForeignKey(
        Promotion, verbose_name=_("promotion"), on_delete=models.PROTECT, related_name="periods"
    )
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))
    prize_cents = models.BigIntegerField(_("prize"))
    carried_in_cents = models.BigIntegerField(_("carried over"), default=0)
    status = models.CharField(
        _("status"), max_length=8, choices=PeriodStatus.choices, default=PeriodStatus.OPEN
    )
    # What the house added to the fund at settlement because the drops did not cover the prize.
    house_cents = models.BigIntegerField(_("added by the house"), default=0)
    house_posting = models.OneToOneField(
        "cashier.Posting",
        verbose_name=_("posting"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        verbose_name = _("promotion period")
        verbose_name_plural = _("promotion periods")
        ordering = ["promotion", "starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["promotion", "starts_at"], name="promotion_period_once"),
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="promotion_period_order"
            ),
            models.CheckConstraint(
                condition=Q(prize_cents__gte=0, carried_in_cents__gte=0, house_cents__gte=0),
                name="promotion_period_amounts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.promotion} {self.starts_at:%Y-%m-%d %H:%M}"

    @property
    def total_prize_cents(self) -> int:
        return self.prize_cents + self.carried_in_cents


class PromotionDrop(models.Model):
    """The drop one qualifying pot paid into a promotion's fund, posted with the hand's end."""

    promotion = models.ForeignKey(
        Promotion, verbose_name=_("promotion"), on_delete=models.PROTECT, related_name="drops"
    )
    hand = models.ForeignKey(
        Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="promotion_drops"
    )
    amount_cents = models.BigIntegerField(_("drop"))

    class Meta:
        verbose_name = _("promotion drop")
        verbose_name_plural = _("promotion drops")
        constraints = [
            models.UniqueConstraint(fields=["promotion", "hand"], name="promotion_drop_once_per_hand"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="promotion_drop_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.promotion_id} {self.hand_id} {self.amount_cents}"


class HighHandClaim(models.Model):
    """A high hand the floor entered for a seat of a hand, verified by the evaluator; the
    period's best claims (equal strength) share its prize."""

    period = models.ForeignKey(
        PromotionPeriod, verbose_name=_("period"), on_delete=models.PROTECT, related_name="claims"
    )
    hand = models.ForeignKey(
        Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="high_hand_claims"
    )
    table = models.ForeignKey(CashTable, verbose_name=_("table"), on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="high_hand_claims"
    )
    hole_cards = models.CharField(_("hole cards"), max_length=4)
    board = models.CharField(_("board"), max_length=10)
    best_five = models.CharField(_("best five cards"), max_length=10)
    hand_label = models.CharField(_("hand"), max_length=40)
    strength = models.PositiveIntegerField(_("strength"))  # poker.hands.HandValue.strength
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("recorded by"), on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("claimed"))

    class Meta:
        verbose_name = _("high-hand claim")
        verbose_name_plural = _("high-hand claims")
        ordering = ["-strength", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["period", "hand", "seat"], name="high_hand_claim_once"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_label} {self.hole_cards}"

    @property
    def hole_list(self) -> list[str]:
        return [self.hole_cards[i : i + 2] for i in range(0, len(self.hole_cards), 2)]

    @property
    def board_list(self) -> list[str]:
        return [self.board[i : i + 2] for i in range(0, len(self.board), 2)]


class HighHandAward(models.Model):
    """A winner's share of a period's prize, owed until the cage pays it from the fund."""

    period = models.ForeignKey(
        PromotionPeriod, verbose_name=_("period"), on_delete=models.PROTECT, related_name="awards"
    )
    claim = models.OneToOneField(
        HighHandClaim, verbose_name=_("claim"), on_delete=models.PROTECT, related_name="award"
    )
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="high_hand_awards"
    )
    amount_cents = models.BigIntegerField(_("amount"))
    transaction = models.OneToOneField(
        "cashier.CashierTransaction",
        verbose_name=_("cashier transaction"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)

    class Meta:
        verbose_name = _("high-hand award")
        verbose_name_plural = _("high-hand awards")
        ordering = ["period", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="high_hand_award_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.amount_cents}"
