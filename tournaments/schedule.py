"""The clock's arithmetic on plain values (TRN-8): which levels are due by a given moment.

Each level starts exactly when the one before it was scheduled to end, never at the moment a
process noticed it, so a late worker loses no time and catches up every missed level once.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Rise:
    index: int  # 0-based index of the level entered
    started_at: datetime  # the scheduled end of the level before it


@dataclass(frozen=True)
class Projection:
    rises: list[Rise]
    index: int
    started_at: datetime | None
    ends_at: datetime | None  # None: the last level runs on with no end
    last_level_opened: bool  # the last level's scheduled end passed in this projection


def project(
    *,
    durations: list[timedelta],
    index: int,
    started_at: datetime | None,
    ends_at: datetime | None,
    now: datetime,
) -> Projection:
    """Roll the schedule forward to `now`: every level whose end is at or before `now` is left."""
    rises: list[Rise] = []
    opened = False
    while ends_at is not None and ends_at <= now:
        if index + 1 >= len(durations):
            # Like a real clock, the last level keeps running once its time is up.
            ends_at = None
            opened = True
            break
        index += 1
        started_at = ends_at
        ends_at = started_at + durations[index]
        rises.append(Rise(index=index, started_at=started_at))
    return Projection(
        rises=rises, index=index, started_at=started_at, ends_at=ends_at, last_level_opened=opened
    )


def remaining(ends_at: datetime | None, now: datetime) -> timedelta | None:
    if ends_at is None:
        return None
    return max(ends_at - now, timedelta(0))


def milliseconds(delta: timedelta | None) -> int | None:
    """Whole milliseconds of a duration (floored), exact: no float involved."""
    if delta is None:
        return None
    return (delta.days * 86_400_000) + (delta.seconds * 1000) + (delta.microseconds // 1000)
