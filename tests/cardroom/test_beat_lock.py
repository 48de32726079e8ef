"""Exactly one beat sends the schedule (OPS-2): the beat lock in Redis, and the scheduler that
sends nothing without it. The processes themselves, two beats and a SIGKILL, are in
tests/faults/test_beat_takeover.py."""

import logging
import os
import time
import uuid
from datetime import timedelta

import pytest

from cardroom import beat
from cardroom.celery import app
from tests.faults.processes import free_port

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")


@pytest.fixture
def lock_key(monkeypatch):
    """A key of this test's own, so no beat another test runs on this Redis database waits on it."""
    key = f"test:beat-lock:{uuid.uuid4().hex}"
    monkeypatch.setattr(beat, "LOCK_KEY", key)
    yield key
    if os.environ.get("REDIS_URL"):
        beat.lock_for(os.environ["REDIS_URL"]).client.delete(key)


@pytest.fixture
def make_scheduler(tmp_path, monkeypatch):
    """make_scheduler(lock) -> (a LockedScheduler over the project's schedule with `lock`, the
    names of the entries it sent). Nothing is sent to a broker; each is closed at the end."""
    monkeypatch.setattr(beat.LockedScheduler, "producer", None, raising=False)
    sent_by: dict[int, list[str]] = {}
    monkeypatch.setattr(
        beat.LockedScheduler,
        "apply_entry",
        lambda self, entry, producer=None: sent_by[id(self)].append(entry.name),
    )
    made: list[beat.LockedScheduler] = []

    def make(lock: beat.BeatLock | None) -> tuple[beat.LockedScheduler, list[str]]:
        scheduler = beat.LockedScheduler(app=app, schedule_filename=str(tmp_path / f"schedule-{len(made)}"))
        scheduler.lock = lock
        made.append(scheduler)
        return scheduler, sent_by.setdefault(id(scheduler), [])

    yield make
    for scheduler in made:
        scheduler.close()


def run_ticks(scheduler: beat.LockedScheduler, count: int = 20) -> None:
    """Tick `count` times with every entry of the schedule due (last run an hour ago)."""
    for entry in scheduler.schedule.values():
        entry.last_run_at = app.now() - timedelta(hours=1)
    scheduler._heap = None  # built again from the entries at the next tick
    for _ in range(count):
        scheduler.tick()


@needs_redis
def test_a_second_beat_waits_while_the_lock_is_held__OPS_2(lock_key):
    first = beat.lock_for(os.environ["REDIS_URL"])
    second = beat.lock_for(os.environ["REDIS_URL"])
    assert first.hold() is True
    ttl_before = first.client.pttl(lock_key)

    assert second.hold() is False
    assert second.holder() == first.token
    # The refused start changed nothing: the key still holds the first beat's name and expiry.
    assert first.client.get(lock_key).decode() == first.token
    assert 0 < first.client.pttl(lock_key) <= ttl_before
    assert first.hold() is True


@needs_redis
def test_the_waiting_beat_takes_over_when_the_holder_stops_renewing__OPS_2(lock_key):
    first = beat.lock_for(os.environ["REDIS_URL"], seconds=0.3)
    second = beat.lock_for(os.environ["REDIS_URL"], seconds=0.3)
    assert first.hold() is True
    assert second.hold() is False
    time.sleep(0.4)  # the first beat was killed: nobody renews its lock

    assert second.hold() is True
    assert second.holder() == second.token
    # The first beat, back from a freeze, finds the lock gone and does not take it back.
    assert first.hold(now=time.monotonic() + beat.RENEW_EVERY) is False
    assert second.holder() == second.token


@needs_redis
def test_the_holder_keeps_the_lock_by_renewing_it__OPS_2(lock_key, monkeypatch):
    monkeypatch.setattr(beat, "RENEW_EVERY", 0.0)  # renewed at every hold(), not once a second
    first = beat.lock_for(os.environ["REDIS_URL"], seconds=0.5)
    second = beat.lock_for(os.environ["REDIS_URL"], seconds=0.5)
    assert first.hold() is True
    for _ in range(4):  # 1.2 s in all, past the expiry twice over
        time.sleep(0.3)
        assert first.hold() is True
        assert second.hold() is False
    assert second.holder() == first.token


@needs_redis
def test_a_beat_stopped_cleanly_hands_over_at_once__OPS_2(lock_key, make_scheduler):
    active, active_sent = make_scheduler(beat.lock_for(os.environ["REDIS_URL"]))
    standby, standby_sent = make_scheduler(beat.lock_for(os.environ["REDIS_URL"]))
    run_ticks(active)
    run_ticks(standby)
    assert len(active_sent) == len(app.conf.beat_schedule)  # every entry is due at the first tick
    assert standby_sent == []
    assert (active.state, standby.state) == ("active", "standby")

    active.close()  # SIGTERM: beat closes its scheduler, which gives the lock back
    assert active.lock.client.get(lock_key) is None
    run_ticks(standby, 1)
    assert standby.state == "active"
    assert standby.lock.holder() == standby.lock.token


def test_a_beat_that_cannot_reach_redis_sends_nothing__OPS_2(make_scheduler, caplog):
    standby, sent = make_scheduler(beat.lock_for(f"redis://127.0.0.1:{free_port()}/0"))
    with caplog.at_level(logging.INFO, logger="cardroom.beat"):
        assert standby.tick() == beat.STANDBY_POLL
        assert standby.tick() == beat.STANDBY_POLL
    assert sent == []
    assert standby.state == "unreachable"
    messages = [record.getMessage() for record in caplog.records if record.name == "cardroom.beat"]
    assert len(messages) == 1  # said once, not at every tick
    assert messages[0].startswith("beat lock: cannot reach Redis (")
    assert messages[0].endswith("this beat sends nothing meanwhile.")


def test_without_redis_the_one_beat_runs_the_schedule_alone__OPS_2(make_scheduler, caplog):
    """The embedded default (`make run` with nothing but Python): no lock, every entry sent."""
    assert beat.redis_url_of("sqlalchemy+sqlite:///var/celery-broker.sqlite3", "") == ""
    assert beat.lock_for("") is None
    alone, sent = make_scheduler(None)
    with caplog.at_level(logging.INFO, logger="cardroom.beat"):
        run_ticks(alone)
    assert sorted(sent) == sorted(app.conf.beat_schedule)
    assert [record.getMessage() for record in caplog.records if record.name == "cardroom.beat"] == [
        "beat lock: no Redis: this beat runs the schedule alone (start exactly one)."
    ]


def test_the_beats_meet_on_the_broker_else_on_redis_url__OPS_2():
    assert (
        beat.redis_url_of("redis://10.0.0.5:6379/2", "redis://127.0.0.1:6379/0") == "redis://10.0.0.5:6379/2"
    )
    assert beat.redis_url_of("rediss://cache:6380/1", "") == "rediss://cache:6380/1"
    assert beat.redis_url_of("memory://", "redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
