"""The dealer's hand log with the rake and jackpot drop of each hand and pot (RAK-1..RAK-4,
RAK-6) and its dead money (POT-4)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame.models.games import CashTable


class HandStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    ENDED = "ended", _("Ended")
    VOIDED = "voided", _("Void")


class VoidReason(models.TextChoices):
    MISDEAL = "misdeal", _("Misdeal")
    DUPLICATE_CARD = "duplicate_card", _("Duplicate card")


class Hand(VenueScoped):
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
    # Dead blinds posted for this hand by players coming back (CSH-6): in the main pot (POT-4).
    dead_cents = models.BigIntegerField(_("dead money"), default=0)
    # Once ended: [{"amount_cents", "rake_cents", "drop_cents"}, ...], main pot first, each
    # pot's share of the hand's rake and jackpot drop (RAK-6); one entry without side pots.
    pots = models.JSONField(_("pots"), default=list, blank=True)
    rake_cents = models.BigIntegerField(_("rake"), default=0)
    jackpot_drop_cents = models.BigIntegerField(_("jackpot drop"), default=0)
    void_reason = models.CharField(_("void because"), max_length=20, choices=VoidReason.choices, blank=True)
    posting = models.OneToOneField(
        "cashier.Posting",
        verbose_name=_("posting"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
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
            models.CheckConstraint(condition=Q(dead_cents__gte=0), name="hand_dead_money_not_negative"),
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
