"""Bad-beat jackpot claims and the players' shares of them (JKP-3)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.hands import Hand


class JackpotClaim(VenueScoped):
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
