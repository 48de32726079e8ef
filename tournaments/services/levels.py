"""Editing the levels of a tournament, running or not (TRN-7, TRN-8): duration, blinds and ante
of every level not finished yet, the current one included. The changes are checked together, so
raising two levels at once never fails half-way; the clock follows a new length of the level
being played.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from tournaments.models import (
    MAX_LEVEL_MINUTES,
    MIN_LEVEL_MINUTES,
    Tournament,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.services import clock
from tournaments.services._common import lock_tournament
from tournaments.services.structures import validate_level, validate_sequence

LEVEL_FIELDS = ["kind", "small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante", "note"]
EDITABLE = {"small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante", "note", "minutes"}
AUDITED = [*LEVEL_FIELDS, "duration_seconds"]


def _refuse(code: str, message: str, rule: str = "TRN-7", status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=rule, status_code=status_code)


@transaction.atomic
def tournament_levels_edit(
    *, actor, tournament: Tournament, changes: dict[int, dict], now: datetime | None = None
) -> list[TournamentLevel]:
    """Apply `changes` ({level order: {field: value}}, minutes for the duration) all or nothing.

    Levels that have finished are refused once the clock has started; the level being played may
    change (its new duration moves the end of the level, TRN-8). The whole list must still never
    decrease (TRN-7). One audit record per level changed, with its values before and after."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    for fields in changes.values():
        unknown = set(fields) - EDITABLE
        if unknown:
            raise _refuse(
                "unknown_field", _("These fields cannot be edited: %s") % ", ".join(sorted(unknown))
            )
    tournament = lock_tournament(tournament.pk)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise _refuse(
            "tournament_closed",
            _("The tournament is %s; its levels can no longer change.") % tournament.get_status_display(),
        )
    # A level already due rises first, so "the current level" is the one really being played.
    clock.advance_locked(tournament, now=now)
    levels = list(tournament.levels.order_by("order"))
    by_order = {level.order: index for index, level in enumerate(levels)}
    current = tournament.current_level_index if tournament.clock_started else -1
    sequence = [{field: getattr(level, field) for field in LEVEL_FIELDS} for level in levels]
    minutes = {}
    for order in sorted(changes):
        index = by_order.get(order)
        if index is None:
            raise DomainError("not_found", _("The tournament has no level %d.") % order, status_code=404)
        if index < current:
            raise _refuse(
                "past_level_locked",
                _("Level %(order)d has already been played; only the current and later levels can change.")
                % {"order": order},
            )
        level = levels[index]
        merged = {**sequence[index], "minutes": level.minutes, **changes[order]}
        if (
            "minutes" not in changes[order]
            and not MIN_LEVEL_MINUTES <= merged["minutes"] <= MAX_LEVEL_MINUTES
        ):
            merged["minutes"] = MIN_LEVEL_MINUTES  # a test's short level: only the length is checked
        clean = validate_level(merged, position=order)
        sequence[index] = {field: clean[field] for field in LEVEL_FIELDS}
        if "minutes" in changes[order]:
            minutes[index] = clean["minutes"]
    validate_sequence(sequence)
    changed = []
    for order in sorted(changes):
        index = by_order[order]
        level = levels[index]
        before = snapshot(level, AUDITED)
        for field in LEVEL_FIELDS:
            setattr(level, field, sequence[index][field])
        old_seconds = level.duration_seconds
        if index in minutes:
            level.duration_seconds = minutes[index] * 60
        after = snapshot(level, AUDITED)
        if after == before:
            continue
        level.save()
        changed.append(level)
        audit_record(
            actor=actor,
            action="tournament.level_update",
            obj=tournament,
            before={"order": order, **before},
            after={"order": order, **after},
            now=now,
        )
        if index == current and level.duration_seconds != old_seconds:
            clock.current_duration_changed_locked(
                tournament,
                delta_seconds=level.duration_seconds - old_seconds,
                actor=actor,
                now=now,
                note=f"level {order}: {old_seconds} s -> {level.duration_seconds} s",
            )
    return changed
