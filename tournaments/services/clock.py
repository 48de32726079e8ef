"""The tournament clock (TRN-8): start, pause, resume, add or remove time, step a level, and the
scheduled rise of levels.

The schedule is the tournament row: `current_level_index`, `level_started_at`, `level_ends_at`
and, while paused, `paused_remaining_ms`. Every service here locks that row, changes it, bumps
`clock_version`, writes an audit record with the clock before and after, and (after commit)
sends the ETA message for the new level end. A floor action's actor is the staff member; a
scheduled rise's actor is None, recorded as "system".
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments import refusals
from tournaments.models import (
    CLOCK_RUNNING,
    CLOCK_STARTED,
    LevelKind,
    Tournament,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.schedule import milliseconds, project
from tournaments.services import level_end, player_notices
from tournaments.services._common import (
    ETA_HORIZON,
    check_transition,
    clock_snapshot,
    enqueue_tick,
    lock_tournament,
)

MAX_ADJUST_SECONDS = 3600


def _levels(tournament: Tournament) -> list[TournamentLevel]:
    return list(tournament.levels.order_by("order"))


def _counting_status(level: TournamentLevel) -> str:
    return TournamentStatus.ON_BREAK if level.kind == LevelKind.BREAK else TournamentStatus.RUNNING


def _require_started(tournament: Tournament) -> None:
    if tournament.status not in CLOCK_STARTED:
        raise DomainError(
            "clock_not_running",
            _("The clock of a tournament that is %(status)s cannot be changed; start it first.")
            % {"status": tournament.get_status_display()},
            rule="TRN-8",
            status_code=409,
        )


def _save(
    tournament: Tournament,
    *,
    actor,
    action: str,
    before: dict,
    now: datetime,
    note: str = "",
    enqueue: bool = True,
) -> None:
    tournament.clock_version += 1
    if enqueue:
        enqueue_tick(tournament, now=now)
    tournament.save(
        update_fields=[
            "status",
            "current_level_index",
            "level_started_at",
            "level_ends_at",
            "paused_remaining_ms",
            "clock_version",
            "tick_eta_at",
            "started_at",
        ]
    )
    audit_record(
        actor=actor,
        action=action,
        obj=tournament,
        before=before,
        after=clock_snapshot(tournament),
        note=note,
        now=now,
    )


def _enter_level(tournament: Tournament, levels: list[TournamentLevel], index: int, *, now: datetime) -> None:
    """Make `index` the current level with its full time, counting from `now` unless paused."""
    level = levels[index]
    tournament.current_level_index = index
    tournament.level_started_at = now
    if tournament.status == TournamentStatus.PAUSED:
        tournament.level_ends_at = None
        tournament.paused_remaining_ms = level.duration_seconds * 1000
    else:
        tournament.status = _counting_status(level)
        tournament.level_ends_at = now + level.duration
        tournament.paused_remaining_ms = None


@transaction.atomic
def clock_start(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Start level 1 now.

    TRN-1 (the minimum number of registered players) is enforced here once registrations
    exist: the registration work adds the count check before the transition.
    """
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    check_transition(tournament, TournamentStatus.RUNNING)
    before = clock_snapshot(tournament)
    levels = _levels(tournament)
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = now
    _enter_level(tournament, levels, 0, now=now)
    _save(tournament, actor=actor, action="clock.start", before=before, now=now)
    level_end.on_clock_start(tournament, now=now)
    player_notices.start_told(tournament, now=now)
    return tournament


@transaction.atomic
def clock_pause(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    pause_locked(tournament, actor=actor, now=now)
    return tournament


def pause_locked(tournament: Tournament, *, actor, now: datetime, note: str = "") -> None:
    """Pause the locked clock, keeping what is left of the level; the one pause of every caller
    (the floor's button, hand-for-hand between hands: SER-3). The caller holds the lock."""
    # A level already due rises first, so the pause keeps the time of the right level.
    _advance(tournament, now=now)
    check_transition(tournament, TournamentStatus.PAUSED)
    before = clock_snapshot(tournament)
    if tournament.level_ends_at is not None:
        tournament.paused_remaining_ms = milliseconds(max(tournament.level_ends_at - now, timedelta(0)))
    else:
        tournament.paused_remaining_ms = None
    tournament.level_ends_at = None
    tournament.status = TournamentStatus.PAUSED
    _save(tournament, actor=actor, action="clock.pause", before=before, now=now, note=note)


@transaction.atomic
def clock_resume(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    if tournament.status != TournamentStatus.PAUSED:
        raise DomainError("clock_not_paused", _("The clock is not paused."), rule="TRN-8", status_code=409)
    resume_locked(tournament, actor=actor, now=now)
    return tournament


def resume_locked(tournament: Tournament, *, actor, now: datetime, note: str = "") -> None:
    """Resume the locked, paused clock with exactly the time it kept; the one resume of every
    caller (the floor's button, hand-for-hand's next hand: SER-3). The caller holds the lock."""
    level = _levels(tournament)[tournament.current_level_index]
    status = _counting_status(level)
    check_transition(tournament, status)
    before = clock_snapshot(tournament)
    tournament.status = status
    if tournament.paused_remaining_ms is not None:
        tournament.level_ends_at = now + timedelta(milliseconds=tournament.paused_remaining_ms)
    tournament.paused_remaining_ms = None
    _save(tournament, actor=actor, action="clock.resume", before=before, now=now, note=note)


@transaction.atomic
def clock_add_time(*, actor, tournament: Tournament, seconds: int, now: datetime | None = None) -> Tournament:
    """Add (or, negative, remove) time from the current level. Removing all that is left is
    refused: step to the next level instead."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if seconds == 0 or abs(seconds) > MAX_ADJUST_SECONDS:
        raise DomainError(
            "invalid_adjustment",
            _("Add or remove between 1 and %d seconds.") % MAX_ADJUST_SECONDS,
            rule="TRN-8",
        )
    tournament = lock_tournament(tournament.pk)
    _require_started(tournament)
    _advance(tournament, now=now)
    before = clock_snapshot(tournament)
    if tournament.status == TournamentStatus.PAUSED:
        left = (
            None
            if tournament.paused_remaining_ms is None
            else timedelta(milliseconds=tournament.paused_remaining_ms)
        )
    else:
        left = None if tournament.level_ends_at is None else tournament.level_ends_at - now
    refusal = refusals.time_change_refusal(left=left, seconds=seconds)
    if refusal is not None:
        raise refusal
    if tournament.status == TournamentStatus.PAUSED:
        tournament.paused_remaining_ms += seconds * 1000
    else:
        tournament.level_ends_at += timedelta(seconds=seconds)
    _save(tournament, actor=actor, action="clock.add_time", before=before, now=now, note=f"{seconds:+d} s")
    return tournament


@transaction.atomic
def clock_next_level(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Go to the next level now, with its full time (paused stays paused)."""
    return _step(actor=actor, tournament=tournament, step=1, now=now)


@transaction.atomic
def clock_previous_level(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Go back one level, restarting it with its full time (paused stays paused)."""
    return _step(actor=actor, tournament=tournament, step=-1, now=now)


def _step(*, actor, tournament: Tournament, step: int, now: datetime | None) -> Tournament:
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    _require_started(tournament)
    _advance(tournament, now=now)
    levels = _levels(tournament)
    refusal = refusals.level_step_refusal(
        index=tournament.current_level_index, level_count=len(levels), step=step
    )
    if refusal is not None:
        raise refusal
    index = tournament.current_level_index + step
    target = _counting_status(levels[index])
    if tournament.status not in (TournamentStatus.PAUSED, target):
        check_transition(tournament, target)
    before = clock_snapshot(tournament)
    if step > 0:
        # Stepping past a level ends it: its end-of-level work runs now (TRN-3, TRN-6).
        level_end.on_level_end(tournament, levels, tournament.current_level_index, now=now)
    _enter_level(tournament, levels, index, now=now)
    _save(
        tournament,
        actor=actor,
        action="clock.next_level" if step > 0 else "clock.previous_level",
        before=before,
        now=now,
    )
    return tournament


def _advance(tournament: Tournament, *, now: datetime) -> int:
    """Raise every level whose scheduled end is at or before `now`, each exactly once, on the
    locked row (the caller holds the lock). Returns how many levels rose.

    The work that must happen when a level ends runs here, on each rise inside this same
    transaction so it happens exactly once with it (level_end.on_level_end): closing late
    registration, rebuys and add-ons (TRN-6) and the guarantee decision (TRN-3).
    """
    if (
        tournament.status not in CLOCK_RUNNING
        or tournament.level_ends_at is None
        or tournament.level_ends_at > now
    ):
        return 0
    levels = _levels(tournament)
    projection = project(
        durations=[level.duration for level in levels],
        index=tournament.current_level_index,
        started_at=tournament.level_started_at,
        ends_at=tournament.level_ends_at,
        now=now,
    )
    for number, rise in enumerate(projection.rises, start=1):
        level_end.on_level_end(tournament, levels, rise.index - 1, now=now)
        before = clock_snapshot(tournament)
        tournament.current_level_index = rise.index
        tournament.level_started_at = rise.started_at
        tournament.level_ends_at = rise.started_at + levels[rise.index].duration
        tournament.status = _counting_status(levels[rise.index])
        # Only the level the clock settles on needs its end message.
        settled = number == len(projection.rises) and not projection.last_level_opened
        _save(tournament, actor=None, action="clock.rise", before=before, now=now, enqueue=settled)
        if settled and levels[rise.index].is_break:
            player_notices.break_told(tournament, now=now)
    if projection.last_level_opened:
        level_end.on_level_end(tournament, levels, len(levels) - 1, now=now)
        before = clock_snapshot(tournament)
        tournament.level_ends_at = None
        _save(
            tournament,
            actor=None,
            action="clock.last_level_open",
            before=before,
            now=now,
            note="The last level runs on without an end.",
            enqueue=False,
        )
    return len(projection.rises)


def advance_locked(tournament: Tournament, *, now: datetime) -> int:
    """Raise what is due before another service acts on the locked row (registration, bust-outs),
    so it acts on the level that is really running."""
    return _advance(tournament, now=now)


@transaction.atomic
def clock_advance_due(*, tournament_id: int, now: datetime | None = None) -> int:
    """The scheduled rise (TRN-8): idempotent, so a duplicated, late or early message is harmless.

    Under the row lock it re-reads the schedule and raises every level that is due, each once,
    starting each level at its predecessor's scheduled end (no time lost when late).
    """
    now = now or timezone.now()
    try:
        tournament = lock_tournament(tournament_id)
    except Tournament.DoesNotExist:
        return 0
    return _advance(tournament, now=now)


def clock_reconcile(*, now: datetime | None = None) -> dict[str, int]:
    """The beat's safety net: advance every overdue clock and send the ETA message for level
    ends that came within range of the broker (or whose message was never sent)."""
    now = now or timezone.now()
    overdue = list(
        Tournament.objects.filter(status__in=CLOCK_RUNNING, level_ends_at__lte=now)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    risen = sum(clock_advance_due(tournament_id=pk, now=now) for pk in overdue)
    upcoming = list(
        Tournament.objects.filter(
            status__in=CLOCK_RUNNING, level_ends_at__gt=now, level_ends_at__lte=now + ETA_HORIZON
        )
        .exclude(tick_eta_at=F("level_ends_at"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for pk in upcoming:
        _schedule_tick(tournament_id=pk, now=now)
    return {"overdue": len(overdue), "risen": risen, "scheduled": len(upcoming)}


@transaction.atomic
def _schedule_tick(*, tournament_id: int, now: datetime) -> None:
    tournament = lock_tournament(tournament_id)
    enqueue_tick(tournament, now=now)
    tournament.save(update_fields=["tick_eta_at"])


def current_duration_changed_locked(
    tournament: Tournament, *, delta_seconds: int, actor, now: datetime, note: str
) -> None:
    """The current level's duration changed by `delta_seconds` (TRN-8): its end moves by as much,
    keeping any time the floor added or removed, and the ETA message follows the new end (an old
    message for the former end finds nothing due and does nothing). Refused when the new end would
    already be past: the floor steps to the next level instead. The caller holds the lock and has
    advanced the clock."""
    delta = timedelta(seconds=delta_seconds)
    before = clock_snapshot(tournament)
    if tournament.status == TournamentStatus.PAUSED:
        if tournament.paused_remaining_ms is None:
            return
        left = tournament.paused_remaining_ms + delta_seconds * 1000
        if left <= 0:
            raise _too_short(int(-left // 1000))
        tournament.paused_remaining_ms = left
    elif tournament.level_ends_at is not None:
        if tournament.level_ends_at + delta <= now:
            raise _too_short(int((now - tournament.level_ends_at - delta).total_seconds()))
        tournament.level_ends_at += delta
    else:
        return  # the open-ended last level: its time is up whatever its length
    _save(tournament, actor=actor, action="clock.level_duration", before=before, now=now, note=note)


def _too_short(seconds_past: int) -> DomainError:
    return DomainError(
        "level_time_passed",
        _(
            "That duration would have ended the current level %(seconds)d seconds ago; "
            "go to the next level instead."
        )
        % {"seconds": seconds_past},
        rule="TRN-8",
        status_code=409,
    )
