"""Entries (a re-entry is a new entry, TRN-6) and what each one paid (TRN-2, TRN-6)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.seating import Table
from tournaments.models.tournament import Tournament


class EntryKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    RE_ENTRY = "re_entry", _("Re-entry")
    # A Day 2 seat of a multi-day event, from a flight's bag (SER-2): nothing paid for it.
    BAG = "bag", _("From a bag")


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    BUSTED = "busted", _("Busted")
    REFUND_DUE = "refund_due", _("Refund due")
    REFUNDED = "refunded", _("Refunded")
    # Given back before it played (a refund at the cage, or a reversal of its buy-in, CAG-6).
    WITHDRAWN = "withdrawn", _("Withdrawn")


# The entries that make the field: the others were refunded or withdrawn.
COUNTED_STATUSES = (EntryStatus.ACTIVE, EntryStatus.BUSTED)


class Entry(VenueScoped):
    """One paid entry of a player in a tournament (a re-entry is a new entry, TRN-6)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="entries"
    )
    player = models.ForeignKey(
        "players.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    number = models.PositiveIntegerField(_("entry number"))
    kind = models.CharField(_("kind"), max_length=8, choices=EntryKind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    present = models.BooleanField(_("present"), default=False)
    cashier_transaction = models.OneToOneField(
        "cashier.CashierTransaction",
        verbose_name=_("buy-in receipt"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entry",
    )
    starting_stack_chips = models.PositiveIntegerField(_("starting stack"))
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    rebuys = models.PositiveSmallIntegerField(_("rebuys"), default=0)
    add_ons = models.PositiveSmallIntegerField(_("add-ons"), default=0)
    registered_at = models.DateTimeField(_("registered"))
    busted_at = models.DateTimeField(_("busted"), null=True, blank=True)
    bust_number = models.PositiveIntegerField(_("bust-out number"), null=True, blank=True)
    # Where the player sat when he busted, so an undone bust-out can give the seat back.
    bust_table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Chips at the start of the hand he busted in: ranks the players out in one hand (TRN-10)
    # whenever the places are given, which is after late registration for an early bust-out.
    bust_stack_chips = models.PositiveIntegerField(
        _("chips at the start of the bust hand"), null=True, blank=True
    )
    finish_place = models.PositiveIntegerField(_("finishing place"), null=True, blank=True)
    prize_cents = models.BigIntegerField(_("prize (cents)"), null=True, blank=True)
    prize_transaction = models.OneToOneField(
        "cashier.CashierTransaction",
        verbose_name=_("prize receipt"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_prize",
    )
    refund_cents = models.BigIntegerField(_("refund due (cents)"), null=True, blank=True)
    refund_transaction = models.OneToOneField(
        "cashier.CashierTransaction",
        verbose_name=_("refund receipt"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_refund",
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            # One live entry per player: a re-entry needs the last one busted (TRN-6).
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status=EntryStatus.ACTIVE),
                name="entry_one_active_per_player",
            ),
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(table__isnull=False), name="entry_seat_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament", "finish_place"],
                condition=Q(finish_place__isnull=False),
                name="entry_finish_place_unique",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True, seat__isnull=True) | Q(table__isnull=False, seat__gte=1),
                name="entry_table_and_seat_together",
            ),
            models.CheckConstraint(
                condition=Q(prize_cents__isnull=True) | Q(prize_cents__gte=0), name="entry_prize_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="entry_tournament_status")]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"


class EntryPaymentKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    RE_ENTRY = "re_entry", _("Re-entry")
    REBUY = "rebuy", _("Rebuy")
    ADD_ON = "add_on", _("Add-on")


class EntryPayment(VenueScoped):
    """What an entry paid, one row per cashier transaction: refunds (TRN-2) sum these."""

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="payments")
    kind = models.CharField(_("kind"), max_length=8, choices=EntryPaymentKind.choices)
    cashier_transaction = models.OneToOneField(
        "cashier.CashierTransaction", on_delete=models.PROTECT, related_name="tournament_payment"
    )
    prize_cents = models.BigIntegerField(_("prize contribution (cents)"))
    fee_cents = models.BigIntegerField(_("fee (cents)"))
    bounty_cents = models.BigIntegerField(_("bounty (cents)"), default=0)
    chips = models.PositiveIntegerField(_("chips"))
    created_at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("entry payment")
        verbose_name_plural = _("entry payments")
        ordering = ["entry", "pk"]

    def __str__(self) -> str:
        return f"{self.entry} {self.get_kind_display()}"
