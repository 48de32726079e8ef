"""Tournaments, their own levels and their clock (TRN-8), and the rules and outcomes kept beside
them (TRN-3 to TRN-6, TRN-10).

A tournament copies its structure's levels into its own rows when it is created, so editing a
template never changes a tournament (TRN-7). The clock's schedule lives on the tournament row
(current level, when it ends, what is left while paused), so any process can raise a level by
re-reading the row under its lock.
"""

from datetime import timedelta

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.structures import BlindStructure, LevelFields, level_constraints


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
    CONDITIONAL = "conditional", _("Conditional: enough players present")
    UNCONDITIONAL = "unconditional", _("Unconditional")
    OWN_COUNT = "own_count", _("Conditional: own player count")


class Tournament(VenueScoped):
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
    # Copied from the structure when the tournament is created, like its levels (CHP-1).
    chip_set = models.ForeignKey(
        "chips.ChipSet",
        verbose_name=_("chip set"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
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
    # SER-1: a satellite pays seats (tickets) in its target, the remainder in cash to the next place.
    satellite_target = models.ForeignKey(
        "self",
        verbose_name=_("satellite for"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="satellites",
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
    # A Day-1 flight of a multi-day event (SER-2) and its label ("1A"); the Day 2 is named by
    # the event (Event.day_two), not here.
    event = models.ForeignKey(
        "tournaments.Event",
        verbose_name=_("event"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="flights",
    )
    flight_label = models.CharField(_("flight"), max_length=8, blank=True)

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
            models.UniqueConstraint(
                fields=["event", "flight_label"],
                condition=Q(event__isnull=False),
                name="tournament_flight_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def buy_in_cents(self) -> int:
        return self.prize_cents + self.fee_cents + self.bounty_cents

    @property
    def is_satellite(self) -> bool:
        return self.satellite_target_id is not None

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
            *level_constraints("tournament_level"),
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
    # Hand-for-hand (SER-3): on since `hand_for_hand_at` (None: off). `hand_for_hand_round`
    # counts the hands played one at a time; the bust-outs of the current round share
    # `hand_for_hand_bust_number` (None: no one out in it yet), so they share places (TRN-10).
    # `hand_for_hand_paused` is true while the clock waits, paused, for the floor's next hand.
    hand_for_hand_at = models.DateTimeField(_("hand-for-hand since"), null=True, blank=True)
    hand_for_hand_round = models.PositiveIntegerField(_("hand-for-hand round"), default=0)
    hand_for_hand_bust_number = models.PositiveIntegerField(null=True, blank=True)
    hand_for_hand_paused = models.BooleanField(default=False)

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
