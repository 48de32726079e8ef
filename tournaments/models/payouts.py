"""The finalised payouts of a tournament (TRN-10) and the bounties won (TRN-6)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class PayoutPlace(models.Model):
    """The finalised prize of a place (TRN-10); amounts sum to the prize pool exactly."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payout_places")
    place = models.PositiveIntegerField(_("place"))
    amount_cents = models.BigIntegerField(_("prize (cents)"))
    # A satellite's seat (SER-1): paid as a ticket to the target worth `amount_cents`, not cash.
    seat = models.BooleanField(_("seat"), default=False)

    class Meta:
        verbose_name = _("payout place")
        verbose_name_plural = _("payout places")
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="payout_place_unique"),
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="payout_place_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.place}"


class BountyReason(models.TextChoices):
    KNOCKOUT = "knockout", _("Knock-out")
    OWN = "own", _("Own bounty back")


class BountyAward(models.Model):
    """A bounty won (TRN-6): the bounty that `busted_entry` carried, or its share of it on a split
    pot, goes to `entry`, who eliminated him; at the end each player still in (the winner) gets
    his own bounty back (`entry` == `busted_entry`). The money stays in the tournament's bounty
    pool until the cashier pays it (`transaction`); the awards of a finished tournament sum to
    the bounties paid in, exactly."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="bounty_awards")
    entry = models.ForeignKey(
        "tournaments.Entry", verbose_name=_("won by"), on_delete=models.PROTECT, related_name="bounties_won"
    )
    busted_entry = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("bounty of"),
        on_delete=models.PROTECT,
        related_name="bounty_awards",
    )
    reason = models.CharField(_("reason"), max_length=8, choices=BountyReason.choices)
    amount_cents = models.BigIntegerField(_("bounty (cents)"))
    # The bust-out that won it (undoing that bust-out removes it); null for bounties given back
    # when the tournament is finished.
    bust_number = models.PositiveIntegerField(_("bust-out number"), null=True, blank=True)
    created_at = models.DateTimeField(_("time"))
    transaction = models.ForeignKey(
        "cashier.CashierTransaction",
        verbose_name=_("receipt"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_bounties",
    )

    class Meta:
        verbose_name = _("bounty award")
        verbose_name_plural = _("bounty awards")
        ordering = ["tournament", "pk"]
        constraints = [
            # A bounty (or a share of it) goes to each eliminator once.
            models.UniqueConstraint(fields=["busted_entry", "entry"], name="bounty_award_once"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="bounty_award_positive"),
        ]
        indexes = [models.Index(fields=["tournament", "bust_number"], name="bounty_award_bust")]

    def __str__(self) -> str:
        return f"{self.tournament} {self.busted_entry_id} -> {self.entry_id}"
