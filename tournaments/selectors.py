"""Reads of the tournaments app: structure lists and exports, tournament lists, and the clock
state every screen shows (TRN-8)."""

from datetime import datetime, timedelta

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from tournaments.models import (
    CLOCK_RUNNING,
    BlindStructure,
    GuaranteeMode,
    LevelKind,
    Tournament,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.schedule import milliseconds, project

LEVEL_KEYS = [
    "kind",
    "small_blind_chips",
    "big_blind_chips",
    "ante_chips",
    "big_blind_ante",
    "minutes",
    "note",
]


def structure_list() -> QuerySet[BlindStructure]:
    return BlindStructure.objects.annotate(
        level_count=Count("levels", filter=Q(levels__kind=LevelKind.LEVEL)),
        break_count=Count("levels", filter=Q(levels__kind=LevelKind.BREAK)),
    ).order_by("name")


def structure_levels_data(structure: BlindStructure) -> list[dict]:
    """The levels as plain dicts in the import/export shape (structure_io)."""
    return list(structure.levels.order_by("order").values(*LEVEL_KEYS))


def tournament_list(*, include_closed: bool = True) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if not include_closed:
        tournaments = tournaments.exclude(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
    return tournaments.order_by("-start_at", "-pk")


def level_numbers(levels: list[TournamentLevel]) -> list[int | None]:
    """The number players know each level by (breaks are not counted and have none)."""
    numbers: list[int | None] = []
    count = 0
    for level in levels:
        if level.kind == LevelKind.LEVEL:
            count += 1
            numbers.append(count)
        else:
            numbers.append(None)
    return numbers


def _level_dict(level: TournamentLevel, *, index: int, number: int | None) -> dict:
    return {
        "index": index,
        "number": number,
        "kind": level.kind,
        "small_blind_chips": level.small_blind_chips,
        "big_blind_chips": level.big_blind_chips,
        "ante_chips": level.ante_chips,
        "big_blind_ante": level.big_blind_ante,
        "duration_ms": level.duration_seconds * 1000,
        "note": level.note,
    }


def tournament_clock_get(*, tournament: Tournament, now: datetime | None = None) -> dict:
    """The clock as every screen shows it (TRN-8), public: it carries no personal data.

    The schedule is rolled forward to `now` with the same arithmetic as the scheduled rise, so
    the answer is exact even in the moment between a level's end and the worker raising it.
    `remaining_ms` is what is left of the current level at `server_now` (None: no end);
    screens count down from it locally and correct themselves on the next poll.
    """
    now = now or timezone.now()
    levels = list(tournament.levels.order_by("order"))
    numbers = level_numbers(levels)
    index = tournament.current_level_index
    ends_at = tournament.level_ends_at
    remaining: timedelta | None
    counting = tournament.status in CLOCK_RUNNING
    status = tournament.status
    if counting:
        projection = project(
            durations=[level.duration for level in levels],
            index=index,
            started_at=tournament.level_started_at,
            ends_at=ends_at,
            now=now,
        )
        index, ends_at = projection.index, projection.ends_at
        status = (
            TournamentStatus.ON_BREAK if levels[index].kind == LevelKind.BREAK else TournamentStatus.RUNNING
        )
        remaining = None if ends_at is None else max(ends_at - now, timedelta(0))
    elif tournament.status == TournamentStatus.PAUSED:
        remaining = (
            None
            if tournament.paused_remaining_ms is None
            else timedelta(milliseconds=tournament.paused_remaining_ms)
        )
    elif tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        remaining = levels[index].duration if levels else None
    else:
        remaining = None
    current = levels[index] if levels else None
    next_break_in = None
    if remaining is not None:
        ahead = remaining
        for later in levels[index + 1 :]:
            if later.kind == LevelKind.BREAK:
                next_break_in = ahead
                break
            ahead += later.duration
    state = {
        "id": tournament.pk,
        "name": tournament.name,
        "status": status,
        "status_label": str(TournamentStatus(status).label),
        "counting": counting and ends_at is not None,
        "server_now": now.isoformat(),
        "clock_version": tournament.clock_version,
        "start_at": tournament.start_at.isoformat(),
        "level_ends_at": ends_at.isoformat() if counting and ends_at is not None else None,
        "remaining_ms": milliseconds(remaining),
        "next_break_in_ms": milliseconds(next_break_in),
        "level": _level_dict(current, index=index, number=numbers[index]) if current else None,
        "next_level": (
            _level_dict(levels[index + 1], index=index + 1, number=numbers[index + 1])
            if index + 1 < len(levels)
            else None
        ),
        "levels": [_level_dict(level, index=i, number=numbers[i]) for i, level in enumerate(levels)],
        "starting_stack_chips": tournament.starting_stack_chips,
    }
    if tournament.guarantee_mode != GuaranteeMode.NONE:
        # The amount and its terms; whether it holds is decided at the deadline (TRN-3) by
        # the guarantee work, which adds its outcome here.
        state["guarantee"] = {
            "amount_cents": tournament.guarantee_cents,
            "mode": tournament.guarantee_mode,
            "player_count": tournament.guarantee_player_count,
            "deadline_level": tournament.guarantee_deadline_level,
        }
    return state
