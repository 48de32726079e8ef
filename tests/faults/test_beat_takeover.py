"""Exactly one beat, however many servers (OPS-2): two beats on one Redis, the active one killed.

Beat A starts first and holds the beat lock; beat B, started second against the same private
redis-server, says that it waits and sends nothing. A tournament's clock runs with levels of two
seconds that rise by the beats' reconciler alone (the worker sends no ETA messages:
tests/faults/beat_only_clock.py), so a level rises only while a beat runs. A is killed with
SIGKILL: no clean-up, its lock left to expire. B must take over within the lock's expiry, and
every level must rise exactly once, in order, each starting at its predecessor's scheduled end,
late by no more than the takeover; the lateness of each rise is printed. Then A comes back and
waits, and B stopped cleanly (SIGTERM) hands over at once. Nothing is sent by a beat while it
waits, and the books agree.
"""

import re
import sys
import time
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from cardroom import beat
from reports.selectors.books import books_problems
from tests.faults.processes import (
    RedisServer,
    broker_of_this_process,
    celery_env,
    kill,
    start,
    start_beat,
    stop_all,
    wait_for_log,
)
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.services import _common, clock
from tournaments.services.clock import clock_pause, clock_start

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.long,
    pytest.mark.django_db(transaction=True),
]

RECONCILE = timedelta(seconds=settings.CELERY_BEAT_SCHEDULE["tournaments-clock-reconcile"]["schedule"])
LOCK = timedelta(seconds=beat.LOCK_SECONDS)
# What a rise may take beyond the reconciler's run on this shared two-core machine: the worker
# fetching the message, the task's transaction, the audit record.
SLACK = timedelta(seconds=1)
LEVEL_SECONDS = 2
# Short levels enough for the slowest run seen (two beats starting on a loaded machine): the test
# ends at the level it waits for, so spare ones cost nothing.
SHORT_LEVELS = 60
SENT = "Scheduler: Sending due task"
HOLDS = "holds the beat lock and runs the schedule"
WAITS = "waits and sends nothing"
TOOK_OVER = "took over the schedule from"


def rises(tournament_id: int) -> list[tuple[int, datetime, datetime]]:
    from cardroom.models import AuditRecord

    return [
        (r.after["current_level_index"], datetime.fromisoformat(r.after["level_started_at"]), r.at)
        for r in AuditRecord.objects.filter(action="clock.rise", object_id=str(tournament_id)).order_by("pk")
    ]


def wait_for_level(tournament_id: int, index: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while Tournament.objects.values_list("current_level_index", flat=True).get(pk=tournament_id) < index:
        assert time.monotonic() < deadline, f"level index {index} not reached; rises: {rises(tournament_id)}"
        time.sleep(0.05)


def seen_at(log, text: str, timeout: float) -> datetime:
    """The moment `text` first shows in the log (polled every 50 ms)."""
    wait_for_log(log, text, timeout=timeout)
    return timezone.now()


def sends_before(log, text: str) -> int:
    """How many tasks the beat sent before the line holding `text` (all of them if none does)."""
    lines = log.read_text(errors="replace").splitlines()
    until = next((at for at, line in enumerate(lines) if text in line), len(lines))
    return sum(SENT in line for line in lines[:until])


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def test_second_beat_takes_over_when_the_first_is_killed_and_every_level_rises_once__OPS_2(
    floor, tmp_path, redis_server, monkeypatch, capsys
):
    # This process sends no ETA message either (clock_start's), as the worker sends none.
    monkeypatch.setattr(_common, "ETA_HORIZON", timedelta(0))
    monkeypatch.setattr(clock, "ETA_HORIZON", timedelta(0))
    url = redis_server.url
    logs = {name: tmp_path / f"{name}.log" for name in ("worker", "a", "b", "a-again")}
    worker_command = [sys.executable, "-m", "tests.faults.beat_only_clock", "worker", "--pool=threads"]
    worker_command += [
        "--concurrency=4",
        "--loglevel=INFO",
        "--hostname=takeover@%h",
        "--without-gossip",
        "--without-mingle",
    ]
    processes = {}
    try:
        processes["worker"] = start(worker_command, logs["worker"], celery_env(url))
        wait_for_log(logs["worker"], "ready.", timeout=60)
        processes["a"] = start_beat(logs["a"], url, tmp_path / "schedule-a")
        wait_for_log(logs["a"], HOLDS, timeout=60)
        processes["b"] = start_beat(logs["b"], url, tmp_path / "schedule-b")
        wait_for_log(logs["b"], WAITS, timeout=60)
        assert re.search(
            rf"beat lock: .+ pid {processes['a'].pid} #\w+ holds the beat lock: this beat",
            logs["b"].read_text(),
        )

        with broker_of_this_process(url):
            tournament = TournamentFactory(
                levels=[(100 * (i + 1), 200 * (i + 1), LEVEL_SECONDS) for i in range(SHORT_LEVELS)]
                + [(100_000, 200_000, 600)]
            )
            t0 = clock_start(actor=floor, tournament=tournament).level_started_at
        scheduled = {
            index: t0 + timedelta(seconds=LEVEL_SECONDS * index) for index in range(1, SHORT_LEVELS + 1)
        }
        wait_for_level(tournament.pk, 2, timeout=LEVEL_SECONDS * 2 + 10)
        assert sends_before(logs["b"], TOOK_OVER) == 0  # B waited, and sent nothing

        kill(processes["a"])
        killed_at = timezone.now()
        took_over_at = seen_at(logs["b"], TOOK_OVER, timeout=(LOCK + RECONCILE).total_seconds() + 10)
        takeover = took_over_at - killed_at
        assert takeover <= LOCK + timedelta(seconds=beat.STANDBY_POLL) + SLACK * 2, takeover
        after = max(index for index, at in scheduled.items() if at <= took_over_at) + 2
        wait_for_level(tournament.pk, after, timeout=(scheduled[after] - timezone.now()).total_seconds() + 10)

        # A comes back: it waits for B. B stopped cleanly gives the lock back: A takes over at once.
        processes["a-again"] = start_beat(logs["a-again"], url, tmp_path / "schedule-a-again")
        wait_for_log(logs["a-again"], WAITS, timeout=60)
        processes["b"].terminate()
        stopped_at = timezone.now()
        handed_over_at = seen_at(logs["a-again"], TOOK_OVER, timeout=10)
        handover = handed_over_at - stopped_at
        assert handover <= timedelta(seconds=beat.STANDBY_POLL) + SLACK * 2, handover
        last = max(index for index, at in scheduled.items() if at <= timezone.now()) + 1
        wait_for_level(tournament.pk, last, timeout=(scheduled[last] - timezone.now()).total_seconds() + 10)
        with broker_of_this_process(url):
            clock_pause(actor=floor, tournament=tournament)  # nothing rises after this
        time.sleep(1)
    finally:
        stop_all(processes.values())

    seen = rises(tournament.pk)
    lateness = [(index, at - started) for index, started, at in seen]
    with capsys.disabled():
        print(
            f"\nbeat A killed; B took over {takeover.total_seconds():.2f} s later (lock {LOCK.seconds} s); "
            f"B stopped cleanly, A took over {handover.total_seconds():.2f} s later"
        )
        for index, late in lateness:
            print(f"  level {index + 1:2d} rose {late.total_seconds():5.2f} s after its start")
    # Every level rose once, in order, on its schedule, up to `last` at least: on a slow machine one
    # more may rise between the wait above and the pause, and it must be just as right.
    final = max(index for index, _started, _at in seen)
    assert final >= last
    assert [(index, started) for index, started, _at in seen] == [
        (index, scheduled[index]) for index in range(1, final + 1)
    ]
    gaps = [(killed_at, took_over_at), (stopped_at, handed_over_at)]  # no beat sending
    for index, late in lateness:
        # Never early; at the reconciler's next run, or, for a level due while no beat sent
        # (or just before, when the dead beat's next run never came), at the run right after.
        due = scheduled[index]
        latest = next((max(due, end) for start, end in gaps if start - RECONCILE <= due <= end), due)
        assert timedelta(0) <= late and due + late <= latest + RECONCILE + SLACK, (index, late)
    assert sends_before(logs["a-again"], TOOK_OVER) == 0
    assert sends_before(logs["b"], TOOK_OVER) == 0
    assert books_problems() == []
