"""Writes of tournaments: creation (copying the structure, TRN-7), the settings of the future
registration and guarantee work, status changes and edits of the tournament's own levels."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from chips.models import ChipSetKind
from chips.selectors import chip_set_default
from tournaments.models import (
    BlindStructure,
    GuaranteeMode,
    LevelKind,
    Tournament,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.services._common import check_transition, clock_snapshot, lock_tournament, rules_for
from tournaments.services.levels import tournament_levels_edit
from tournaments.services.payouts.bounties import bounties_award_remaining
from tournaments.services.payouts.places import places_assign_locked
from tournaments.services.registration import refunds_owed

SETTINGS_FIELDS = [
    "name",
    "structure",
    "structure_name",
    "start_at",
    "prize_cents",
    "fee_cents",
    "bounty_cents",
    "starting_stack_chips",
    "min_players",
    "table_size",
    "late_registration_level",
    "max_reentries",
    "guarantee_cents",
    "guarantee_mode",
    "guarantee_player_count",
    "guarantee_deadline_level",
]
LEVEL_FIELDS = ["kind", "small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante", "note"]
MAX_CENTS = 10**12


def _refuse(code: str, message: str, rule: str = "") -> DomainError:
    return DomainError(code, message, rule=rule)


def _validate_settings(data: dict, *, level_count: int) -> None:
    if not data["name"].strip() or len(data["name"]) > 120:
        raise _refuse("tournament_name_required", _("Give the tournament a name of at most 120 characters."))
    if timezone.is_naive(data["start_at"]):
        raise _refuse("naive_start", _("The start time needs a time zone."))
    for field, label in (
        ("prize_cents", _("The prize contribution")),
        ("fee_cents", _("The fee")),
        ("bounty_cents", _("The bounty")),
    ):
        if not 0 <= data[field] <= MAX_CENTS:
            raise _refuse("invalid_buy_in", _("%s cannot be negative.") % label, "TRN-6")
    if not 0 < data["starting_stack_chips"] <= 10**9:
        raise _refuse("invalid_starting_stack", _("The starting stack must be more than 0 chips."))
    if not 2 <= data["min_players"] <= 10_000:
        raise _refuse("invalid_min_players", _("At least 2 players are needed to start."), "TRN-1")
    if not 2 <= data["table_size"] <= 10:
        raise _refuse("invalid_table_size", _("A table seats 2 to 10 players."), "TRN-9")
    if data["late_registration_level"] > level_count:
        raise _refuse(
            "invalid_late_registration",
            _(
                "Late registration can last until level %(count)d at most "
                "(the structure has %(count)d levels)."
            )
            % {"count": level_count},
            "TRN-6",
        )
    if not 0 <= data["max_reentries"] <= 100:
        raise _refuse("invalid_reentries", _("Re-entries per player must be 0 to 100."), "TRN-6")
    mode = data["guarantee_mode"]
    if mode not in GuaranteeMode.values:
        raise _refuse("invalid_guarantee_mode", _("Unknown guarantee mode."), "TRN-4")
    if mode == GuaranteeMode.NONE and data["guarantee_cents"] != 0:
        raise _refuse(
            "guarantee_without_mode", _("Choose a guarantee mode for the guaranteed amount."), "TRN-4"
        )
    if mode != GuaranteeMode.NONE and not 0 < data["guarantee_cents"] <= MAX_CENTS:
        raise _refuse("guarantee_amount_missing", _("Give the guaranteed amount."), "TRN-3")
    if not 2 <= data["guarantee_player_count"] <= 10_000:
        raise _refuse("invalid_guarantee_count", _("The guarantee player count must be 2 or more."), "TRN-4")
    if not 1 <= data["guarantee_deadline_level"] <= level_count:
        raise _refuse(
            "invalid_guarantee_deadline",
            _("The guarantee is checked at the end of a level between 1 and %d.") % level_count,
            "TRN-3",
        )


@transaction.atomic
def tournament_create(
    *,
    actor,
    name: str,
    structure: BlindStructure,
    start_at: datetime,
    prize_cents: int,
    fee_cents: int,
    starting_stack_chips: int,
    bounty_cents: int = 0,
    min_players: int = 9,
    table_size: int = 9,
    late_registration_level: int = 0,
    max_reentries: int = 0,
    guarantee_cents: int = 0,
    guarantee_mode: str = GuaranteeMode.NONE,
    guarantee_player_count: int = 15,
    guarantee_deadline_level: int = 3,
    now: datetime | None = None,
) -> Tournament:
    """A scheduled tournament with its own copy of the structure's levels (TRN-7)."""
    require_role(actor, *FLOOR_ROLES)
    levels = list(structure.levels.order_by("order"))
    level_count = sum(1 for level in levels if level.kind == LevelKind.LEVEL)
    if not level_count:
        raise _refuse("structure_empty", _("The structure has no levels."), "TRN-7")
    data = {
        "name": name.strip(),
        "start_at": start_at,
        "prize_cents": prize_cents,
        "fee_cents": fee_cents,
        "bounty_cents": bounty_cents,
        "starting_stack_chips": starting_stack_chips,
        "min_players": min_players,
        "table_size": table_size,
        "late_registration_level": late_registration_level,
        "max_reentries": max_reentries,
        "guarantee_cents": guarantee_cents,
        "guarantee_mode": guarantee_mode,
        "guarantee_player_count": guarantee_player_count,
        "guarantee_deadline_level": guarantee_deadline_level,
    }
    _validate_settings(data, level_count=level_count)
    tournament = Tournament.objects.create(
        structure=structure,
        structure_name=structure.name,
        chip_set=structure.chip_set or chip_set_default(kind=ChipSetKind.TOURNAMENT),
        status=TournamentStatus.SCHEDULED,
        **data,
    )
    TournamentLevel.objects.bulk_create(
        TournamentLevel(
            tournament=tournament,
            order=order,
            duration_seconds=level.minutes * 60,
            **{field: getattr(level, field) for field in LEVEL_FIELDS},
        )
        for order, level in enumerate(levels, start=1)
    )
    audit_record(
        actor=actor,
        action="tournament.create",
        obj=tournament,
        after=snapshot(tournament, [*SETTINGS_FIELDS, "status"]),
        now=now or timezone.now(),
    )
    return tournament


def _set_status(
    *, actor, tournament: Tournament, to: str, action: str, now: datetime | None, **fields
) -> Tournament:
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    check_transition(tournament, to)
    before = clock_snapshot(tournament)
    tournament.status = to
    for name, value in fields.items():
        setattr(tournament, name, value(now) if callable(value) else value)
    tournament.clock_version += 1
    tournament.save()
    audit_record(
        actor=actor, action=action, obj=tournament, before=before, after=clock_snapshot(tournament), now=now
    )
    return tournament


@transaction.atomic
def tournament_open_registration(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    return _set_status(
        actor=actor,
        tournament=tournament,
        to=TournamentStatus.REGISTERING,
        action="tournament.open_registration",
        now=now,
    )


@transaction.atomic
def tournament_finish(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor ends a running tournament; the clock stops on its current level. The field is
    final, so every busted entry gets its place (TRN-10). Every player still in gets his own
    bounty back, so the bounty awards account for the whole pool (TRN-6)."""
    now = now or timezone.now()
    tournament = _set_status(
        actor=actor,
        tournament=tournament,
        to=TournamentStatus.FINISHED,
        action="tournament.finish",
        now=now,
        level_ends_at=None,
        paused_remaining_ms=None,
        finished_at=lambda moment: moment,
    )
    places_assign_locked(tournament, rules_for(tournament), actor=actor, now=now)
    bounties_award_remaining(tournament, actor=actor, now=now)
    return tournament


@transaction.atomic
def tournament_cancel(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Cancel the tournament and stop its clock; in the same transaction every entry's money
    moves to refunds payable for the cashier to pay out (TRN-2)."""
    now = now or timezone.now()
    tournament = _set_status(
        actor=actor,
        tournament=tournament,
        to=TournamentStatus.CANCELLED,
        action="tournament.cancel",
        now=now,
        level_ends_at=None,
        paused_remaining_ms=None,
        finished_at=lambda moment: moment,
    )
    refunds_owed(tournament, actor=actor, now=now)
    return tournament


def tournament_level_update(
    *, actor, tournament: Tournament, order: int, now: datetime | None = None, **changes
) -> TournamentLevel:
    """Edit one of the tournament's own levels (see levels.tournament_levels_edit): finished
    levels are refused once the clock has started (TRN-7); the whole list must still never
    decrease; a new length of the current level moves its end (TRN-8)."""
    tournament_levels_edit(actor=actor, tournament=tournament, changes={order: changes}, now=now)
    return tournament.levels.get(order=order)
