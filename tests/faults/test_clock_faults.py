"""The clock under faults (TRN-8): a killed worker, the level task run three times at once, and
a broker that restarts empty. Every level must rise exactly once, in order, starting at its
predecessor's scheduled end, whatever happened to the messages.

The worker and beat are real Celery processes on a private redis-server (this test may kill and
restart it; the machine's shared Redis is left alone), pointed at this test's PostgreSQL
database. The test itself only starts the clock and then watches the database and the audit
trail: each rise is one `clock.rise` audit record by "system".
"""

import threading
import time
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from cardroom.models import AuditRecord
from reports.selectors.books import books_problems
from tests.faults.processes import (
    RedisServer,
    broker_of_this_process,
    celery_processes,
    kill,
    sessions_waiting_on,
    wait_for_line,
    wait_for_log,
)
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.services.clock import clock_pause, clock_start
from tournaments.tasks import clock_tick

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

RECONCILE_PERIOD = timedelta(seconds=settings.CELERY_BEAT_SCHEDULE["tournaments-clock-reconcile"]["schedule"])
# What a rise may take beyond its trigger on this shared two-core machine: the worker fetching
# the message, the task's transaction, the audit record.
SLACK = timedelta(milliseconds=700)
ON_TIME = timedelta(milliseconds=1500)
LEVEL_SECONDS = 2
RECEIVED_TICK = ("Task tournaments.clock_tick[", "] received")


def levels(count: int) -> list[tuple]:
    """`count` short levels, then a long last one that nothing reaches during the test."""
    return [(25 * 2**i, 50 * 2**i, LEVEL_SECONDS) for i in range(count)] + [(10_000, 20_000, 600)]


def rises(tournament_id: int) -> list[tuple[int, str, str, datetime]]:
    return [
        (r.after["current_level_index"], r.after["level_started_at"], r.actor_name, r.at)
        for r in AuditRecord.objects.filter(action="clock.rise", object_id=str(tournament_id)).order_by("pk")
    ]


def latest_rise(scheduled_at: datetime, back_at: datetime) -> datetime:
    """A level rises by its ETA message within ON_TIME of its end; one that came due while the
    worker or the broker was away, or within a reconciler period of its return, may wait for
    the reconciler's first run after that return."""
    if scheduled_at <= back_at + RECONCILE_PERIOD:
        return max(scheduled_at + ON_TIME, back_at + RECONCILE_PERIOD + SLACK)
    return scheduled_at + ON_TIME


def wait_for_level(tournament_id: int, index: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Tournament.objects.values_list("current_level_index", flat=True).get(pk=tournament_id) >= index:
            return
        time.sleep(0.05)
    raise AssertionError(f"level index {index} not reached; rises so far: {rises(tournament_id)}")


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def celery(tmp_path, redis_server):
    """A worker (threads pool, 4 threads) and the one beat, on the private Redis."""
    with celery_processes(tmp_path, redis_server.url, "clockfaults") as processes:
        yield processes


@pytest.mark.long
def test_worker_killed_with_levels_pending_raises_each_due_level_once_after_restart__TRN_8(floor, celery):
    start_one, started, logs = celery
    start_one("worker")
    start_one("beat")
    tournament = TournamentFactory(levels=levels(12))
    t0 = clock_start(actor=floor, tournament=tournament).level_started_at
    scheduled = {index: t0 + timedelta(seconds=LEVEL_SECONDS * index) for index in range(1, 13)}

    # The worker holds the ETA message of level 1's rise, unacknowledged, when it is killed.
    wait_for_line(logs / "worker.log", *RECEIVED_TICK, timeout=10)
    kill(started["worker"])
    assert timezone.now() < scheduled[1]
    time.sleep(max(0.0, (scheduled[2] + timedelta(seconds=0.5) - timezone.now()).total_seconds()))
    assert Tournament.objects.get(pk=tournament.pk).current_level_index == 0  # nobody raised it
    start_one("worker")
    ready_at = timezone.now()
    due_at_restart = [index for index, at in scheduled.items() if at <= ready_at]
    assert due_at_restart[:2] == [1, 2]
    # A duplicated message is harmless too: three more copies of the next level's tick, which
    # the worker's four threads run at the same moment as the original.
    following = max(due_at_restart) + 1
    for _ in range(3):
        clock_tick.apply_async(
            kwargs={"tournament_id": tournament.pk, "due": scheduled[following].isoformat()},
            eta=scheduled[following],
        )
    last = following + 1
    wait_for_level(tournament.pk, last, timeout=(scheduled[last] - timezone.now()).total_seconds() + 10)
    clock_pause(actor=floor, tournament=tournament)  # nothing rises after this
    time.sleep(1)

    seen = rises(tournament.pk)
    assert [(index, started_at, actor) for index, started_at, actor, _at in seen] == [
        (index, scheduled[index].isoformat(), "system") for index in range(1, last + 1)
    ]
    for index, _started, _actor, at in seen:
        # Never early; on time, or (overdue while the worker was dead) right after its restart.
        assert scheduled[index] <= at <= latest_rise(scheduled[index], ready_at), (index, at - ready_at)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_level_index, tournament.level_started_at) == (
        "paused",
        last,
        scheduled[last],
    )
    assert books_problems() == []


def test_level_task_run_three_times_at_once_raises_one_level__TRN_8(floor):
    """Three copies of the level task for the same due level, each on its own database
    connection, released together from behind the tournament's row lock."""
    now = timezone.now()
    one_due = [TournamentFactory(levels=[(25, 50, 60), (50, 100, 60), (75, 150, 60)]) for _ in range(3)]
    three_due = TournamentFactory(levels=[(25, 50, 60), (50, 100, 60), (75, 150, 60), (100, 200, 60)])
    with broker_of_this_process("memory://"):  # the ETA messages go nowhere: the test runs the task
        for tournament in one_due:
            clock_start(actor=floor, tournament=tournament, now=now - timedelta(seconds=60.5))
        clock_start(actor=floor, tournament=three_due, now=now - timedelta(seconds=180.5))

    for tournament, expected in [*((t, 1) for t in one_due), (three_due, 3)]:
        tournament.refresh_from_db()
        due = tournament.level_ends_at.isoformat()
        results: list[int] = []
        threads = [threading.Thread(target=run_tick, args=(tournament.pk, due, results)) for _ in range(3)]
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=tournament.pk)
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 20
            while len(sessions_waiting_on(Tournament._meta.db_table)) < 3:
                assert time.monotonic() < deadline, "the three tasks never met at the lock"
                time.sleep(0.02)
        for thread in threads:
            thread.join(timeout=30)

        assert sorted(results) == [0, 0, expected]
        start = tournament.level_started_at
        assert [(index, at, actor) for index, at, actor, _when in rises(tournament.pk)] == [
            (index, (start + timedelta(seconds=60 * index)).isoformat(), "system")
            for index in range(1, expected + 1)
        ]
        tournament.refresh_from_db()
        assert tournament.current_level_index == expected
    assert books_problems() == []


def run_tick(tournament_id: int, due: str, results: list) -> None:
    try:
        results.append(clock_tick(tournament_id=tournament_id, due=due))
    finally:
        connections.close_all()


@pytest.mark.long
def test_broker_restarted_empty_skips_and_repeats_no_level__TRN_8(floor, celery, redis_server):
    start_one, started, logs = celery
    start_one("worker")
    start_one("beat")
    tournament = TournamentFactory(levels=levels(12))
    t0 = clock_start(actor=floor, tournament=tournament).level_started_at
    scheduled = {index: t0 + timedelta(seconds=LEVEL_SECONDS * index) for index in range(1, 13)}

    # Redis dies with level 1's ETA message in it (and in the worker's hands), and comes back
    # empty (no persistence) after level 1 was due.
    worker_log = logs / "worker.log"
    wait_for_line(worker_log, *RECEIVED_TICK, timeout=10)
    redis_server.kill()
    time.sleep(max(0.0, (scheduled[1] + timedelta(seconds=1) - timezone.now()).total_seconds()))
    assert Tournament.objects.get(pk=tournament.pk).current_level_index == 0
    redis_server.start()
    wait_for_log(worker_log, "Connected to redis", timeout=30, count=2)
    reconnected_at = timezone.now()
    due_at_reconnect = [index for index, at in scheduled.items() if at <= reconnected_at]
    last = max(due_at_reconnect) + 2
    wait_for_level(tournament.pk, last, timeout=(scheduled[last] - timezone.now()).total_seconds() + 10)
    clock_pause(actor=floor, tournament=tournament)
    time.sleep(1)

    seen = rises(tournament.pk)
    assert [(index, started_at, actor) for index, started_at, actor, _at in seen] == [
        (index, scheduled[index].isoformat(), "system") for index in range(1, last + 1)
    ]
    for index, _started, _actor, at in seen:
        # Never early; on time, or (overdue while the broker was away) right after it is back.
        assert scheduled[index] <= at <= latest_rise(scheduled[index], reconnected_at), (
            index,
            at - reconnected_at,
        )
    assert all(process.poll() is None for process in started.values())  # both rode it out
    assert books_problems() == []
