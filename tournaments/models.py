"""Blind structures (TRN-7), tournaments and their clock (TRN-8).

A structure is a reusable template; a tournament copies its levels into its own rows when it is
created, so editing a template never changes a tournament. The clock's schedule lives on the
tournament row (current level, when it ends, what is left while paused), so any process can
raise a level by re-reading the row under its lock.
"""

from datetime import timedelta

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
