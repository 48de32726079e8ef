"""The double-entry ledger (CAG-1), shifts and drawers (CAG-3), cashier transactions with
receipts (CAG-4) and idempotency keys (CAG-2).

Sign convention: an entry's `amount_cents` is positive for a debit and negative for a credit, so
every posting's entries sum to zero and so does the whole ledger. Asset accounts (drawers, card
clearing, the vault) carry positive balances; liabilities and revenue (chips in play, prize
pools, fees, rake, the jackpot fund) carry negative ones, shown as positive by the selectors.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class AccountKind(models.TextChoices):
    VAULT = "vault", _("Vault (main bank)")
    DRAWER = "drawer", _("Cage drawer (per shift)")
    CARD_CLEARING = "card_clearing", _("Card payments clearing")
    CASH_VARIANCE = "cash_variance", _("Cash over / short")
    CHIPS_IN_PLAY = "chips_in_play", _("Chips in play")
    PRIZE_POOL = "prize_pool", _("Tournament prize pool")
    BOUNTY_POOL = "bounty_pool", _("Tournament bounties")
    TOURNAMENT_FEES = "tournament_fees", _("Tournament fee revenue")
    RAKE_REVENUE = "rake_revenue", _("Rake revenue")
    JACKPOT_FUND = "jackpot_fund", _("Jackpot fund")
    OVERLAY_EXPENSE = "overlay_expense", _("Guarantee overlay expense")
    REFUNDS_PAYABLE = "refunds_payable", _("Refunds payable")
    # SER-1: tickets are owed seats (a liability) until used, refunded or expired.
    TICKETS_OUTSTANDING = "tickets_outstanding", _("Tournament tickets outstanding")
    PROMOTION_EXPENSE = "promotion_expense", _("Promotion expense")
    TICKETS_EXPIRED = "tickets_expired", _("Expired tickets income")
    # LOY-1: points owed to players (at each award's value), what they cost, and the comps the
    # bar is owed for vouchers it serves.
    LOYALTY_LIABILITY = "loyalty_liability", _("Loyalty points outstanding")
    LOYALTY_EXPENSE = "loyalty_expense", _("Loyalty expense")
    COMPS_PAYABLE = "comps_payable", _("Food and drink comps payable")
    # LOY-2: a high-hand promotion's fund (owner "promotion:<id>"), fed by drops from the pots.
    PROMOTION_FUND = "promotion_fund", _("High-hand promotion fund")


# The room's own accounts, one of each (no owner): what the manager's balances list.
ROOM_ACCOUNT_KINDS = (
    AccountKind.VAULT,
    AccountKind.CARD_CLEARING,
    AccountKind.CASH_VARIANCE,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.RAKE_REVENUE,
    AccountKind.JACKPOT_FUND,
    AccountKind.OVERLAY_EXPENSE,
    AccountKind.TICKETS_OUTSTANDING,
    AccountKind.PROMOTION_EXPENSE,
    AccountKind.TICKETS_EXPIRED,
    AccountKind.LOYALTY_LIABILITY,
    AccountKind.LOYALTY_EXPENSE,
    AccountKind.COMPS_PAYABLE,
)


class Account(VenueScoped):
    """A ledger account. `owner` tells accounts of one kind apart ("shift:12", "tournament:5",
    "session:40"); singleton accounts (rake revenue, the jackpot fund) have an empty owner."""

    kind = models.CharField(_("kind"), max_length=20, choices=AccountKind.choices)
    owner = models.CharField(_("owner"), max_length=40, blank=True)
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(fields=["venue", "kind", "owner"], name="account_kind_owner_per_venue")
        ]

    def __str__(self) -> str:
        return self.name


class Posting(VenueScoped):
    """One balanced movement of money or chips. Append-only; corrected only by a reversal."""

    created_at = models.DateTimeField(_("time"), db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    description = models.CharField(_("description"), max_length=200)
    # A posting is reversed at most once, and a reversal is never itself reversed (CAG-1).
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        verbose_name = _("posting")
        verbose_name_plural = _("postings")

    def __str__(self) -> str:
        return f"#{self.pk} {self.description}"


class Entry(VenueScoped):
    """One side of a posting. Append-only, enforced by a database trigger."""

    posting = models.ForeignKey(Posting, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount_cents = models.BigIntegerField(_("amount (cents, debit +)"))
    # Copied from the posting so balances "as of" a time need no join.
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.CheckConstraint(condition=~Q(amount_cents=0), name="entry_amount_nonzero")]
        indexes = [models.Index(fields=["account", "created_at"], name="entry_account_time")]

    def __str__(self) -> str:
        return f"{self.account} {self.amount_cents:+d}"


class ShiftStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Shift(VenueScoped):
    """A cashier's working period with one drawer (CAG-3)."""

    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("cashier"), on_delete=models.PROTECT, related_name="shifts"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=ShiftStatus.choices, default=ShiftStatus.OPEN
    )
    opened_at = models.DateTimeField(_("opened"))
    opening_float_cents = models.BigIntegerField(_("opening float"))
    drawer = models.OneToOneField(Account, on_delete=models.PROTECT, related_name="shift")
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    expected_cents = models.BigIntegerField(_("expected"), null=True, blank=True)
    counted_cents = models.BigIntegerField(_("counted"), null=True, blank=True)
    variance_cents = models.BigIntegerField(_("variance"), null=True, blank=True)
    # {"5000": 3, "200": 10}: count per denomination in cents, when counted that way.
    denominations = models.JSONField(_("count by denomination"), null=True, blank=True)
    handed_over_to = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="handed_over_from"
    )
    # The first count of a drawer that differed from the expected amount by more than the
    # venue's recount threshold: the shift stays open for one recount, which closes it (CAG-3).
    first_count_cents = models.BigIntegerField(_("first count"), null=True, blank=True)
    first_counted_at = models.DateTimeField(_("first counted"), null=True, blank=True)

    class Meta:
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["cashier"], condition=Q(status="open"), name="shift_one_open_per_cashier"
            ),
            models.CheckConstraint(condition=Q(opening_float_cents__gte=0), name="shift_float_not_negative"),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True)
                | Q(status="closed", closed_at__isnull=False, counted_cents__isnull=False),
                name="shift_closed_has_count",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('Shift')} #{self.pk} {self.cashier.get_username()}"

    @property
    def is_open(self) -> bool:
        return self.status == ShiftStatus.OPEN

    @property
    def recount_asked(self) -> bool:
        """Counted once, too far from the expected amount: the next count closes the shift."""
        return self.is_open and self.first_counted_at is not None


class TransactionKind(models.TextChoices):
    CASH_BUY_IN = "cash_buy_in", _("Cash-game buy-in")
    TOP_UP = "top_up", _("Top-up")
    CASH_OUT = "cash_out", _("Cash-out")
    TOURNAMENT_BUY_IN = "tournament_buy_in", _("Tournament buy-in")
    RE_ENTRY = "re_entry", _("Re-entry")
    REBUY = "rebuy", _("Rebuy")
    ADD_ON = "add_on", _("Add-on")
    REFUND = "refund", _("Refund")
    PRIZE_PAYOUT = "prize_payout", _("Prize payout")
    BOUNTY_PAYOUT = "bounty_payout", _("Bounty payout")
    JACKPOT_PAYOUT = "jackpot_payout", _("Jackpot payout")
    HIGH_HAND_PAYOUT = "high_hand_payout", _("High-hand prize payout")


# Money the player hands over, and money the cage pays out (PLY-2 sums both).
PAY_IN_KINDS = {
    TransactionKind.CASH_BUY_IN,
    TransactionKind.TOP_UP,
    TransactionKind.TOURNAMENT_BUY_IN,
    TransactionKind.RE_ENTRY,
    TransactionKind.REBUY,
    TransactionKind.ADD_ON,
}
PAY_OUT_KINDS = {
    TransactionKind.CASH_OUT,
    TransactionKind.REFUND,
    TransactionKind.PRIZE_PAYOUT,
    TransactionKind.BOUNTY_PAYOUT,
    TransactionKind.JACKPOT_PAYOUT,
    TransactionKind.HIGH_HAND_PAYOUT,
}


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Cash")
    CARD = "card", _("Card")
    # SER-1: a tournament entry paid with a ticket, or a satellite seat paid as one: no money
    # in the drawer, the tickets-outstanding liability instead.
    TICKET = "ticket", _("Ticket")


# What a player pays with at the desk (a ticket is its own button, never a choice here).
DESK_METHODS = [
    (PaymentMethod.CASH, PaymentMethod.CASH.label),
    (PaymentMethod.CARD, PaymentMethod.CARD.label),
]


class CashierTransaction(VenueScoped):
    """A cashier's business transaction: one posting, one receipt, one idempotency key."""

    receipt_number = models.PositiveBigIntegerField(_("receipt"))
    kind = models.CharField(_("kind"), max_length=20, choices=TransactionKind.choices)
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="transactions")
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="cashier_transactions"
    )
    amount_cents = models.BigIntegerField(_("amount"))
    method = models.CharField(_("payment"), max_length=10, choices=PaymentMethod.choices)
    posting = models.OneToOneField(Posting, on_delete=models.PROTECT, related_name="cashier_transaction")
    # What the money is for: "tournament:5", "session:40" (the games' own records link back).
    reference = models.CharField(_("for"), max_length=40, blank=True, db_index=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # The key of the request that made it (CAG-2): one request, at most one transaction.
    idempotency_key = models.CharField(max_length=80, unique=True)
    created_at = models.DateTimeField(_("time"), db_index=True)

    class Meta:
        verbose_name = _("cashier transaction")
        verbose_name_plural = _("cashier transactions")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="transaction_amount_positive"),
            # Each venue numbers its own receipts (ReceiptCounter).
            models.UniqueConstraint(fields=["venue", "receipt_number"], name="transaction_receipt_per_venue"),
        ]
        indexes = [models.Index(fields=["player", "created_at"], name="transaction_player_time")]

    def __str__(self) -> str:
        return f"{_('Receipt')} {self.receipt_number} {self.get_kind_display()}"


class ReceiptCounter(models.Model):
    """The venue's last receipt number. Incremented under a row lock inside the transaction
    that uses the number, so a rolled-back request gives its number back: no gaps (CAG-4)."""

    venue = models.OneToOneField("cardroom.Venue", on_delete=models.PROTECT, related_name="+")
    last_number = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.venue_id}: {self.last_number}"


class ReversalStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class ReversalRequest(VenueScoped):
    """A correction (CAG-1): requested by one person, approved by a different manager."""

    posting = models.ForeignKey(Posting, on_delete=models.PROTECT, related_name="reversal_requests")
    reason = models.TextField(_("reason"))
    status = models.CharField(max_length=10, choices=ReversalStatus.choices, default=ReversalStatus.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reversal = models.OneToOneField(
        Posting, null=True, blank=True, on_delete=models.PROTECT, related_name="reversal_request"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["posting"], condition=Q(status="pending"), name="reversal_one_pending_per_posting"
            )
        ]

    def __str__(self) -> str:
        return str(
            _("Reversal of posting %(posting)s (%(status)s)")
            % {"posting": self.posting_id, "status": self.get_status_display()}
        )


class LedgerDay(VenueScoped):
    """A gaming day the ledger has closed: its AccountDayTotal rows are built and are the day's
    entries summed. A gaming day that has ended never changes again in normal operation, so
    balances read closed days from their totals and only the rest from the entries.

    A derived cache, not part of the ledger: unlike entries and postings it may be deleted. A
    posting dated into a closed day reopens it (cashier.services.ledger.ledger_day_reopen), which
    deletes this row and the day's totals, and with them, through their foreign keys, whatever
    other apps built on the closed day (the reports' rollups). The beat task closes it again.
    """

    day = models.DateField(_("gaming day"))
    closed_at = models.DateTimeField()

    class Meta:
        verbose_name = _("closed ledger day")
        verbose_name_plural = _("closed ledger days")
        constraints = [models.UniqueConstraint(fields=["venue", "day"], name="ledger_day_per_venue")]

    def __str__(self) -> str:
        return str(self.day)


class AccountDayTotal(VenueScoped):
    """What one account received and gave in one closed gaming day (cents, both as positive
    sums). Written once when its LedgerDay closes and deleted with it; never updated."""

    day = models.DateField(_("gaming day"))
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    debit_cents = models.BigIntegerField(default=0)
    credit_cents = models.BigIntegerField(default=0)
    entry_count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "account"], name="ledger_day_account_unique"),
            models.CheckConstraint(
                condition=Q(debit_cents__gte=0, credit_cents__gte=0), name="ledger_day_sums_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["account", "day"], name="ledger_account_day")]

    def __str__(self) -> str:
        return f"{self.day} {self.account_id} +{self.debit_cents} -{self.credit_cents}"
