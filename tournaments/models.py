"""Blind structures (TRN-7), tournaments and their clock (TRN-8).

A structure is a reusable template; a tournament copies its levels into its own rows when it is
created, so editing a template never changes a tournament. The clock's schedule lives on the
tournament row (current level, when it ends, what is left while paused), so any process can
raise a level by re-reading the row under its lock.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# Limits of a level in a template (TRN-7); a tournament's own copy is kept in seconds.
MIN_LEVEL_MINUTES = 1
MAX_LEVEL_MINUTES = 240
MAX_LEVELS = 100


class LevelKind(models.TextChoices):
    LEVEL = "level", _("Level")
    BREAK = "break", _("Break")


class BlindStructure(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LevelFields(models.Model):
    """What a level or a break is, shared by the template and the tournament's copy.

    During a break the blinds and ante are 0. With `big_blind_ante` the big blind posts the
    ante (`ante_chips`) for the whole table; otherwise every player posts `ante_chips`.
    """

    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=5, choices=LevelKind.choices, default=LevelKind.LEVEL)
    small_blind_chips = models.PositiveIntegerField(_("small blind"), default=0)
    big_blind_chips = models.PositiveIntegerField(_("big blind"), default=0)
    ante_chips = models.PositiveIntegerField(_("ante"), default=0)
    big_blind_ante = models.BooleanField(_("big blind ante"), default=False)
    note = models.CharField(_("note"), max_length=200, blank=True, help_text=_("For example a colour-up."))

    class Meta:
        abstract = True

    @property
    def is_break(self) -> bool:
        return self.kind == LevelKind.BREAK


def _level_constraints(prefix: str) -> list[models.BaseConstraint]:
    is_level = Q(kind=LevelKind.LEVEL)
    return [
        models.CheckConstraint(
            condition=~is_level
            | (Q(small_blind_chips__gt=0) & Q(big_blind_chips__gt=models.F("small_blind_chips"))),
            name=f"{prefix}_big_blind_above_small",
        ),
        models.CheckConstraint(
            condition=is_level
            | (Q(small_blind_chips=0) & Q(big_blind_chips=0) & Q(ante_chips=0) & Q(big_blind_ante=False)),
            name=f"{prefix}_break_has_no_blinds",
        ),
    ]


class StructureLevel(LevelFields):
    structure = models.ForeignKey(
        BlindStructure, verbose_name=_("structure"), on_delete=models.CASCADE, related_name="levels"
    )
    minutes = models.PositiveSmallIntegerField(_("minutes"))

    class Meta:
        verbose_name = _("structure level")
        verbose_name_plural = _("structure levels")
        ordering = ["structure", "order"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "order"], name="structure_level_order_unique"),
            models.CheckConstraint(
                condition=Q(minutes__gte=MIN_LEVEL_MINUTES) & Q(minutes__lte=MAX_LEVEL_MINUTES),
                name="structure_level_minutes_range",
            ),
            *_level_constraints("structure_level"),
        ]

    def __str__(self) -> str:
        return f"{self.structure} #{self.order}"


class TournamentStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    REGISTERING = "registering", _("Registering")
    RUNNING = "running", _("Running")
    ON_BREAK = "on_break", _("On break")
    PAUSED = "paused", _("Paused")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


S = TournamentStatus
# Every legal change of status; anything else is refused. The clock moves between running and
# on_break by itself as it enters and leaves break levels.
TRANSITIONS: dict[str, frozenset[str]] = {
    S.SCHEDULED: frozenset({S.REGISTERING, S.CANCELLED}),
    S.REGISTERING: frozenset({S.RUNNING, S.CANCELLED}),
    S.RUNNING: frozenset({S.ON_BREAK, S.PAUSED, S.FINISHED, S.CANCELLED}),
    S.ON_BREAK: frozenset({S.RUNNING, S.PAUSED, S.FINISHED, S.CANCELLED}),
    S.PAUSED: frozenset({S.RUNNING, S.ON_BREAK, S.FINISHED, S.CANCELLED}),
    S.FINISHED: frozenset(),
    S.CANCELLED: frozenset(),
}
# The clock counts down in these.
CLOCK_RUNNING = frozenset({S.RUNNING, S.ON_BREAK})
# The clock exists (levels can be stepped, time added) in these.
CLOCK_STARTED = frozenset({S.RUNNING, S.ON_BREAK, S.PAUSED})


class GuaranteeMode(models.TextChoices):
    NONE = "none", _("No guarantee")
    CONDITIONAL = "conditional", _("Conditional (TRN-3)")
    UNCONDITIONAL = "unconditional", _("Unconditional (TRN-4)")
    OWN_COUNT = "own_count", _("Own player count (TRN-4)")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=120)
    structure = models.ForeignKey(
        BlindStructure,
        verbose_name=_("structure"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        help_text=_("The template the levels were copied from; the tournament keeps its own copy."),
    )
    structure_name = models.CharField(_("structure name"), max_length=120, blank=True)
    start_at = models.DateTimeField(_("start time"), db_index=True)
    status = models.CharField(
        _("status"), max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.SCHEDULED
    )
    # Buy-in = prize contribution + fee (+ bounty), TRN-6; integer cents.
    prize_cents = models.BigIntegerField(_("prize contribution (cents)"))
    fee_cents = models.BigIntegerField(_("fee (cents)"))
    bounty_cents = models.BigIntegerField(_("bounty (cents)"), default=0)
    starting_stack_chips = models.PositiveIntegerField(_("starting stack"))
    min_players = models.PositiveSmallIntegerField(_("minimum players to start"), default=9)
    table_size = models.PositiveSmallIntegerField(_("table size"), default=9)
    late_registration_level = models.PositiveSmallIntegerField(
        _("late registration until the end of level"), default=0, help_text=_("0: closes at the start.")
    )
    max_reentries = models.PositiveSmallIntegerField(_("re-entries per player"), default=0)
    guarantee_cents = models.BigIntegerField(_("guarantee (cents)"), default=0)
    guarantee_mode = models.CharField(
        _("guarantee"), max_length=13, choices=GuaranteeMode.choices, default=GuaranteeMode.NONE
    )
    guarantee_player_count = models.PositiveSmallIntegerField(_("guarantee player count"), default=15)
    guarantee_deadline_level = models.PositiveSmallIntegerField(
        _("guarantee checked at end of level"), default=3
    )

    # The clock (TRN-8). `current_level_index` is 0-based into the levels ordered by `order`.
    # While counting, `level_ends_at` is when the current level ends (None: the last level runs
    # on without an end); while paused it is None and `paused_remaining_ms` holds what was left
    # (None: paused on the open-ended last level).
    current_level_index = models.PositiveSmallIntegerField(_("current level index"), default=0)
    level_started_at = models.DateTimeField(_("level started"), null=True, blank=True)
    level_ends_at = models.DateTimeField(_("level ends"), null=True, blank=True, db_index=True)
    paused_remaining_ms = models.BigIntegerField(_("time left when paused (ms)"), null=True, blank=True)
    # Bumped by every change of the clock, so screens see that something changed.
    clock_version = models.PositiveIntegerField(_("clock version"), default=0)
    # The level end an ETA message was sent for; the reconciler sends one when they differ.
    tick_eta_at = models.DateTimeField(_("tick scheduled for"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_at", "-pk"]
        indexes = [models.Index(fields=["status", "level_ends_at"], name="tournament_clock_due")]
        constraints = [
            models.CheckConstraint(
                condition=Q(prize_cents__gte=0) & Q(fee_cents__gte=0) & Q(bounty_cents__gte=0),
                name="tournament_buy_in_not_negative",
            ),
            models.CheckConstraint(condition=Q(starting_stack_chips__gt=0), name="tournament_stack_positive"),
            models.CheckConstraint(condition=Q(min_players__gte=2), name="tournament_min_players"),
            models.CheckConstraint(
                condition=Q(table_size__gte=2) & Q(table_size__lte=10), name="tournament_table_size"
            ),
            models.CheckConstraint(
                condition=(Q(guarantee_mode=GuaranteeMode.NONE) & Q(guarantee_cents=0))
                | (~Q(guarantee_mode=GuaranteeMode.NONE) & Q(guarantee_cents__gt=0)),
                name="tournament_guarantee_consistent",
            ),
            models.CheckConstraint(
                condition=Q(paused_remaining_ms__isnull=True) | Q(paused_remaining_ms__gte=0),
                name="tournament_paused_remaining_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def buy_in_cents(self) -> int:
        return self.prize_cents + self.fee_cents + self.bounty_cents

    @property
    def clock_started(self) -> bool:
        return self.status in CLOCK_STARTED


class TournamentLevel(LevelFields):
    """The tournament's own copy of a level. Durations are kept in seconds so the clock can run
    the very short levels of tests and benchmarks; templates are in whole minutes."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="levels"
    )
    duration_seconds = models.PositiveIntegerField(_("duration (seconds)"))

    class Meta:
        verbose_name = _("tournament level")
        verbose_name_plural = _("tournament levels")
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="tournament_level_order_unique"),
            models.CheckConstraint(
                condition=Q(duration_seconds__gt=0), name="tournament_level_duration_positive"
            ),
            *_level_constraints("tournament_level"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.order}"

    @property
    def duration(self) -> timedelta:
        return timedelta(seconds=self.duration_seconds)

    @property
    def minutes(self) -> int:
        return self.duration_seconds // 60


class GuaranteeOutcome(models.TextChoices):
    UNDECIDED = "", _("Not decided yet")
    HELD = "held", _("Holds")
    NOT_HELD = "not_held", _("Does not hold")


class TournamentRules(models.Model):
    """Rebuys, add-ons, the payout table and the recorded outcomes of a tournament (TRN-3 to
    TRN-6, TRN-10): kept beside the tournament row so the clock's row stays small.

    One row per tournament, created with it (or on first use); every write locks the tournament
    row first, then reads or writes this one.
    """

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rules"
    )
    # Rebuys (TRN-6): allowed until the end of level `rebuy_level` (0: none), at most
    # `max_rebuys` per entry, each for `rebuy_chips` at prize + fee.
    rebuy_level = models.PositiveSmallIntegerField(_("rebuys until the end of level"), default=0)
    max_rebuys = models.PositiveSmallIntegerField(_("rebuys per entry"), default=0)
    rebuy_prize_cents = models.BigIntegerField(_("rebuy prize contribution (cents)"), default=0)
    rebuy_fee_cents = models.BigIntegerField(_("rebuy fee (cents)"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), default=0)
    # One add-on per entry until the end of level `add_on_level` (0: none).
    add_on_level = models.PositiveSmallIntegerField(_("add-on until the end of level"), default=0)
    add_on_prize_cents = models.BigIntegerField(_("add-on prize contribution (cents)"), default=0)
    add_on_fee_cents = models.BigIntegerField(_("add-on fee (cents)"), default=0)
    add_on_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    # Basis points per place, first place first; empty: the default table for the entries.
    payout_percentages = models.JSONField(_("payout table (basis points)"), default=list, blank=True)

    # Set by the clock's level-end work under the tournament's lock, each exactly once.
    registration_closed_at = models.DateTimeField(_("registration closed"), null=True, blank=True)
    rebuys_closed_at = models.DateTimeField(_("rebuys closed"), null=True, blank=True)
    add_ons_closed_at = models.DateTimeField(_("add-ons closed"), null=True, blank=True)
    # TRN-3: the guarantee decision, with the count of distinct present players it was made on.
    guarantee_outcome = models.CharField(
        _("guarantee outcome"), max_length=8, choices=GuaranteeOutcome.choices, default="", blank=True
    )
    guarantee_count = models.PositiveIntegerField(_("present players counted"), null=True, blank=True)
    guarantee_decided_at = models.DateTimeField(_("guarantee decided"), null=True, blank=True)
    # TRN-5/TRN-10: payouts finalised once, with the overlay posted then (cents).
    payouts_finalised_at = models.DateTimeField(_("payouts finalised"), null=True, blank=True)
    collected_prize_cents = models.BigIntegerField(_("collected prize pool (cents)"), null=True, blank=True)
    prize_pool_cents = models.BigIntegerField(_("prize pool paid out (cents)"), null=True, blank=True)
    overlay_cents = models.BigIntegerField(_("overlay (cents)"), default=0)
    deal_accepted_at = models.DateTimeField(_("deal accepted"), null=True, blank=True)
    # Each bust-out (one hand, one or more players) gets the next number; undo takes the last.
    bust_sequence = models.PositiveIntegerField(_("bust-outs recorded"), default=0)

    class Meta:
        verbose_name = _("tournament rules")
        verbose_name_plural = _("tournament rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(rebuy_prize_cents__gte=0)
                & Q(rebuy_fee_cents__gte=0)
                & Q(add_on_prize_cents__gte=0)
                & Q(add_on_fee_cents__gte=0)
                & Q(overlay_cents__gte=0),
                name="tournament_rules_amounts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def registration_open(self) -> bool:
        return self.registration_closed_at is None


class EntryKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    RE_ENTRY = "re_entry", _("Re-entry")


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    BUSTED = "busted", _("Busted")
    REFUND_DUE = "refund_due", _("Refund due")
    REFUNDED = "refunded", _("Refunded")


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    BROKEN = "broken", _("Broken")


class Table(models.Model):
    """A tournament table (TRN-9). `break_rank` is the pre-drawn order of breaking (1 first)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    break_rank = models.PositiveSmallIntegerField(_("breaks as"))
    status = models.CharField(
        _("status"), max_length=6, choices=TableStatus.choices, default=TableStatus.OPEN
    )
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_table_number_unique"),
            models.CheckConstraint(
                condition=Q(seats__gte=2) & Q(seats__lte=10), name="tournament_table_seats"
            ),
        ]

    def __str__(self) -> str:
        return _("Table %d") % self.number


class Entry(models.Model):
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


class EntryPayment(models.Model):
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


class MoveReason(models.TextChoices):
    BALANCE = "balance", _("Balancing")
    BREAK = "break", _("Table broken")
    FINAL = "final", _("Final table draw")
    LATE = "late", _("New table for late entries")


class MoveSlip(models.Model):
    """A move slip for the floor (TRN-9): the seat already changed; the floor confirms the player moved."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="move_slips")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="move_slips")
    from_table = models.PositiveSmallIntegerField(_("from table"))
    from_seat = models.PositiveSmallIntegerField(_("from seat"))
    to_table = models.PositiveSmallIntegerField(_("to table"))
    to_seat = models.PositiveSmallIntegerField(_("to seat"))
    reason = models.CharField(_("reason"), max_length=8, choices=MoveReason.choices)
    created_at = models.DateTimeField(_("time"))
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("move slip")
        verbose_name_plural = _("move slips")
        ordering = ["tournament", "pk"]

    def __str__(self) -> str:
        return _("Table %(ft)d seat %(fs)d -> Table %(tt)d seat %(ts)d") % {
            "ft": self.from_table,
            "fs": self.from_seat,
            "tt": self.to_table,
            "ts": self.to_seat,
        }


class PayoutPlace(models.Model):
    """The finalised prize of a place (TRN-10); amounts sum to the prize pool exactly."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payout_places")
    place = models.PositiveIntegerField(_("place"))
    amount_cents = models.BigIntegerField(_("prize (cents)"))

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
