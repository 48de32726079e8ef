"""Loyalty points, tiers, expiry and comps (LOY-1).

Points are earned in lots: one per cash-game session or tournament entry (unique per source, so
the sweep awards each once however often or concurrently it runs), each worth its points at the
point value of the day it was earned (integer cents, floored once per lot). A redemption or an
expiry takes points from the oldest lots first, and with them exactly the worth they still
carry: the ledger's "loyalty points outstanding" always equals the worth left in the lots, even
after the venue changes the point value (the books check proves it).

A player's balance, tier and next expiry are read from the lots; `Movement` is the history a
player and the desk read (award, redemption, expiry, points taken back), each with its posting.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class LoyaltySettings(VenueScoped):
    """One venue's loyalty terms, edited by managers (the first read creates the defaults)."""

    default_points_per_hour = models.PositiveIntegerField(
        _("points per hour (games without a rate)"), default=10
    )
    entry_points = models.PositiveIntegerField(_("points per tournament entry"), default=10)
    # Added to entry_points: this many points per full 100 EUR of the buy-in (0: not scaled).
    entry_points_per_100_eur = models.PositiveIntegerField(_("extra points per 100 EUR of buy-in"), default=0)
    # The point value: `value_cents` cents for every `value_points` points (1 per 1: 0.01 EUR).
    value_cents = models.PositiveIntegerField(_("worth, in 0.01 EUR"), default=1)
    value_points = models.PositiveIntegerField(_("for this many points"), default=1)
    tier_period_days = models.PositiveIntegerField(_("tiers count the points of the last (days)"), default=90)
    expiry_months = models.PositiveIntegerField(_("points expire after months without play"), default=12)

    class Meta:
        verbose_name = _("loyalty settings")
        verbose_name_plural = _("loyalty settings")
        constraints = [
            models.UniqueConstraint(fields=["venue"], name="loyalty_settings_one_per_venue"),
            models.CheckConstraint(
                condition=Q(
                    value_cents__gte=1, value_points__gte=1, expiry_months__gte=1, tier_period_days__gte=1
                ),
                name="loyalty_settings_positive",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Loyalty settings"))


class EarnRate(VenueScoped):
    """Points per hour played in one game and stakes; a game without a rate earns the default."""

    game = models.OneToOneField(
        "cashgame.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="loyalty_rate"
    )
    points_per_hour = models.PositiveIntegerField(_("points per hour"))

    class Meta:
        verbose_name = _("points rate")
        verbose_name_plural = _("points rates")

    def __str__(self) -> str:
        return f"{self.game}: {self.points_per_hour}"


class Tier(VenueScoped):
    name = models.CharField(_("name"), max_length=60)
    min_points = models.PositiveIntegerField(_("points in the period at least"))

    class Meta:
        verbose_name = _("tier")
        verbose_name_plural = _("tiers")
        ordering = ["min_points", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "min_points"], name="tier_threshold_unique"),
            models.UniqueConstraint(fields=["venue", "name"], name="tier_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player's loyalty key (operator-wide, as the player register is, VEN-1): every write to
    his points locks this row first, and `link_version` revokes his private page's link."""

    player = models.OneToOneField(
        "players.Player", on_delete=models.PROTECT, related_name="loyalty_member", primary_key=True
    )
    link_version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name = _("loyalty member")
        verbose_name_plural = _("loyalty members")

    def __str__(self) -> str:
        return str(self.player_id)


class Lot(VenueScoped):
    """Points earned by one session or entry, and what is left of them and of their worth."""

    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="loyalty_lots")
    session = models.OneToOneField(
        "cashgame.PlayerSession", null=True, blank=True, on_delete=models.PROTECT, related_name="loyalty_lot"
    )
    entry = models.OneToOneField(
        "tournaments.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="loyalty_lot"
    )
    # When the play ended (the session left, the entry busted or the tournament ended): expiry
    # and the tier period count from it; the gaming day is the day the play started in.
    earned_at = models.DateTimeField(_("earned"), db_index=True)
    gaming_day = models.DateField(_("gaming day"))
    minutes = models.PositiveIntegerField(_("minutes played"), default=0)
    points = models.PositiveIntegerField(_("points"))
    points_left = models.PositiveIntegerField(_("points left"))
    value_cents = models.BigIntegerField(_("worth"))
    value_left_cents = models.BigIntegerField(_("worth left"))
    # Set when an entry given back had its points taken back (once).
    taken_back_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("points lot")
        verbose_name_plural = _("points lots")
        ordering = ["earned_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(session__isnull=True, entry__isnull=False)
                | Q(session__isnull=False, entry__isnull=True),
                name="lot_one_source",
            ),
            models.CheckConstraint(
                condition=Q(points_left__lte=F("points"), value_left_cents__gte=0)
                & Q(value_left_cents__lte=F("value_cents")),
                name="lot_left_within_earned",
            ),
            models.CheckConstraint(
                condition=Q(points_left__gt=0) | Q(value_left_cents=0), name="lot_empty_worthless"
            ),
        ]
        indexes = [models.Index(fields=["player", "earned_at"], name="lot_player_time")]

    def __str__(self) -> str:
        return f"{self.points} @ {self.earned_at:%Y-%m-%d}"


class MovementKind(models.TextChoices):
    AWARD = "award", _("Points earned")
    VOUCHER = "voucher", _("Food and drink voucher")
    TICKET = "ticket", _("Tournament ticket")
    EXPIRY = "expiry", _("Points expired")
    TAKE_BACK = "take_back", _("Points taken back (entry given back)")


class Movement(VenueScoped):
    """One line of a player's points history: + earned, - redeemed, expired or taken back."""

    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="loyalty_movements")
    kind = models.CharField(_("kind"), max_length=10, choices=MovementKind.choices)
    at = models.DateTimeField(_("time"))
    points = models.IntegerField(_("points"))
    value_cents = models.BigIntegerField(_("worth"))
    balance_after = models.PositiveIntegerField(_("balance after"))
    description = models.CharField(_("description"), max_length=200)
    lot = models.ForeignKey(Lot, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    ticket = models.OneToOneField(
        "tournaments.Ticket", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    posting = models.OneToOneField(
        "cashier.Posting", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("points movement")
        verbose_name_plural = _("points movements")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["player", "at"], name="movement_player_time")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.points:+d}"
