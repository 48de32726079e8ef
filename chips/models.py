"""Chip sets and the chip inventory (CHP-1, CHP-2).

A chip set is the house's chips of one kind: cash-game chips, valued in cents, or tournament
chips, valued in tournament chips. The two are separate sets and never mix in one posting.

The inventory is a double-entry ledger of chips, apart from the money ledger: an account holds
chips of one set (the vault, the cage, a table's tray, the chips in players' hands, and the
set's "in service" account, the contra of every chip ever brought into the room); a posting
moves chips by denomination, and for every denomination its entries sum to zero. Postings,
entries and counts are append-only.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.money import format_chips, format_eur
from cardroom.venues import VenueScoped
from chips.colours import colour_text


class ChipSetKind(models.TextChoices):
    CASH = "cash", _("Cash-game chips")
    TOURNAMENT = "tournament", _("Tournament chips")


class ChipSet(VenueScoped):
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=10, choices=ChipSetKind.choices)

    class Meta:
        verbose_name = _("chip set")
        verbose_name_plural = _("chip sets")
        ordering = ["kind", "pk"]
        constraints = [models.UniqueConstraint(fields=["venue", "name"], name="chips_set_name_per_venue")]

    def __str__(self) -> str:
        return colour_text(self.name)

    @property
    def is_cash(self) -> bool:
        return self.kind == ChipSetKind.CASH


class Denomination(models.Model):
    """One chip of a set: its value (cents in a cash set, chips in a tournament set) and colour."""

    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="denominations")
    value = models.BigIntegerField(_("value"))
    colour = models.CharField(_("colour"), max_length=40)
    # The chip drawn on pages and slips (CSS colour, "#1b7f3b").
    colour_hex = models.CharField(_("colour code"), max_length=7, default="#888888")

    class Meta:
        verbose_name = _("denomination")
        verbose_name_plural = _("denominations")
        ordering = ["chip_set", "value"]
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "value"], name="chips_denomination_unique"),
            models.CheckConstraint(condition=Q(value__gt=0), name="chips_denomination_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value} ({self.colour_label})"

    @property
    def colour_label(self) -> str:
        return colour_text(self.colour)

    def worth_text(self, value: int) -> str:
        """A value of this set in its unit: EUR for cash chips, chips for tournament chips."""
        return format_eur(value) if self.chip_set.kind == ChipSetKind.CASH else format_chips(value)

    @property
    def value_text(self) -> str:
        return self.worth_text(self.value)


class ChipAccountKind(models.TextChoices):
    IN_SERVICE = "in_service", _("Chips in service")
    VAULT = "vault", _("Vault")
    CAGE = "cage", _("Cage")
    TRAY = "tray", _("Table tray")
    HANDS = "hands", _("In players' hands")


# The chips the cage holds and counts itself: never below zero.
CUSTODY_KINDS = (ChipAccountKind.VAULT, ChipAccountKind.CAGE)


class ChipAccount(VenueScoped):
    """Chips of one set in one place. A tray belongs to a table: `table_key` is "cash:<id>" or
    "tournament:<table id>" (the games own the tables; this app only keeps their chips)."""

    chip_set = models.ForeignKey(ChipSet, on_delete=models.PROTECT, related_name="accounts")
    kind = models.CharField(_("kind"), max_length=10, choices=ChipAccountKind.choices)
    table_key = models.CharField(_("table"), max_length=40, blank=True)
    label = models.CharField(_("name"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("chip account")
        verbose_name_plural = _("chip accounts")
        ordering = ["chip_set", "kind", "table_key"]
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "kind", "table_key"], name="chips_account_unique"),
            models.CheckConstraint(
                condition=Q(kind=ChipAccountKind.TRAY) ^ Q(table_key=""), name="chips_account_tray_has_table"
            ),
        ]

    def __str__(self) -> str:
        return self.label or self.get_kind_display()


class ChipPostingKind(models.TextChoices):
    RECEIVE = "receive", _("Chips brought into service")
    TRANSFER = "transfer", _("Transfer")
    FILL = "fill", _("Fill")
    CREDIT = "credit", _("Credit")
    SALE = "sale", _("Chips sold to a player")
    REDEMPTION = "redemption", _("Chips redeemed")


SLIP_KINDS = (ChipPostingKind.FILL, ChipPostingKind.CREDIT)


class ChipPosting(VenueScoped):
    """One movement of chips; a fill or a credit is also a slip, signed on paper by the dealer
    and the floor (the names are kept as written)."""

    chip_set = models.ForeignKey(
        ChipSet, verbose_name=_("chip set"), on_delete=models.PROTECT, related_name="postings"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=ChipPostingKind.choices)
    # Every posting moves chips from one kind of account to another (a tray's table is table_key).
    source_kind = models.CharField(_("from"), max_length=10, choices=ChipAccountKind.choices)
    target_kind = models.CharField(_("to"), max_length=10, choices=ChipAccountKind.choices)
    table_key = models.CharField(_("table"), max_length=40, blank=True)
    table_label = models.CharField(_("table"), max_length=80, blank=True)
    dealer_name = models.CharField(_("dealer"), max_length=80, blank=True)
    floor_name = models.CharField(_("floor"), max_length=80, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("time"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("chip posting")
        verbose_name_plural = _("chip postings")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class ChipEntry(VenueScoped):
    """Chips of one denomination into (+) or out of (-) one account."""

    posting = models.ForeignKey(ChipPosting, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(ChipAccount, on_delete=models.PROTECT, related_name="entries")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, related_name="+")
    quantity = models.BigIntegerField(_("chips"))

    class Meta:
        verbose_name = _("chip entry")
        verbose_name_plural = _("chip entries")
        constraints = [models.CheckConstraint(condition=~Q(quantity=0), name="chips_entry_not_zero")]

    def __str__(self) -> str:
        return f"{self.account}: {self.quantity:+d} x {self.denomination.value}"


class ChipCount(VenueScoped):
    """A count of one account by denomination (a shift's end): what the ledger expected, what
    was counted and each difference. It reports; it posts nothing."""

    account = models.ForeignKey(
        ChipAccount, verbose_name=_("counted"), on_delete=models.PROTECT, related_name="counts"
    )
    counted_at = models.DateTimeField(_("counted"))
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        ordering = ["-counted_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.account} #{self.pk}"


class ChipCountLine(models.Model):
    count = models.ForeignKey(ChipCount, on_delete=models.PROTECT, related_name="lines")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, related_name="+")
    expected = models.BigIntegerField(_("expected"))
    counted = models.BigIntegerField(_("counted"))

    class Meta:
        ordering = ["count", "denomination__value"]
        constraints = [
            models.CheckConstraint(condition=Q(counted__gte=0), name="chips_count_not_negative"),
            models.UniqueConstraint(fields=["count", "denomination"], name="chips_count_line_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.denomination.value}: {self.counted}"

    @property
    def difference(self) -> int:
        return self.counted - self.expected
