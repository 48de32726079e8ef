"""The heartbeats /health/ and /metrics read (OPS-2): the beat stamps its own while it runs the
schedule, a worker stamps its own when it runs the task the beat sends, and a beat that cannot
write keeps running its schedule."""

import logging
import os

import pytest
from django.db import OperationalError

from cardroom.celery import app
from ops import scheduler as ops_scheduler
from ops.models import Heartbeat
from ops.tasks import heartbeat

pytestmark = pytest.mark.django_db


class HeldElsewhere:
    """A beat lock another beat holds."""

    token, seconds, held = "cardroom-1 pid 2 #ab", 10, False

    def hold(self):
        return False

    def holder(self):
        return "cardroom-2 pid 9 #cd"

    def release(self):
        return None


@pytest.fixture
def make_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr(ops_scheduler.Scheduler, "apply_entry", lambda self, entry, producer=None: None)
    made = []

    def make(lock=None):
        scheduler = ops_scheduler.Scheduler(
            app=app, schedule_filename=str(tmp_path / f"schedule-{len(made)}")
        )
        scheduler.lock = lock
        made.append(scheduler)
        return scheduler

    yield make
    for scheduler in made:
        scheduler.close()


def beats() -> list:
    return list(Heartbeat.objects.filter(name="beat").values_list("at", flat=True))


def test_the_running_beat_stamps_every_five_seconds__OPS_2(make_scheduler):
    scheduler = make_scheduler()
    assert scheduler.tick() <= ops_scheduler.HEARTBEAT_EVERY
    (first,) = beats()
    scheduler.tick()
    assert beats() == [first]  # not again within 5 s
    scheduler.stamped_at -= ops_scheduler.HEARTBEAT_EVERY
    scheduler.tick()
    (second,) = beats()
    assert second > first
    assert Heartbeat.objects.get(name="beat").by.endswith(f"pid {os.getpid()}")


def test_a_waiting_beat_stamps_nothing__OPS_2(make_scheduler):
    scheduler = make_scheduler(HeldElsewhere())
    scheduler.tick()
    assert scheduler.state == "standby"
    assert beats() == []


def test_a_beat_that_cannot_write_goes_on_with_its_schedule__OPS_2(make_scheduler, monkeypatch, caplog):
    def down(**kwargs):
        raise OperationalError("the database is down")

    monkeypatch.setattr(ops_scheduler, "heartbeat_stamp", down)
    scheduler = make_scheduler()
    with caplog.at_level(logging.WARNING, logger="cardroom.beat"):
        for _ in range(3):
            scheduler.stamped_at = 0.0
            assert scheduler.tick() <= ops_scheduler.HEARTBEAT_EVERY
    assert [r.getMessage() for r in caplog.records if "heartbeat" in r.getMessage()] == [
        "beat heartbeat: cannot write to the database (the database is down); it goes on trying."
    ]
    assert beats() == []


def test_a_worker_stamps_when_it_runs_the_heartbeat_task__OPS_2():
    heartbeat.apply()
    heartbeat.apply()
    assert Heartbeat.objects.filter(name="worker").count() == 1
