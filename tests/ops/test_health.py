"""/health/ (OPS-2): no log-in, nothing private, 200 or 503 with a JSON body that names every
check, and two database statements a poll."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.db import OperationalError

from ops import health, selectors
from ops.health import health_report
from ops.services import heartbeat_stamp
from tests.ops.conftest import broker
from tests.tournaments.factories import TournamentFactory
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
S = timedelta(seconds=1)


def alive(now=NOW, beat_age=1.0, worker_age=2.0) -> None:
    heartbeat_stamp(name="beat", now=now - beat_age * S, by="cardroom-1 pid 17")
    heartbeat_stamp(name="worker", now=now - worker_age * S, by="cardroom-1 pid 23")


def overdue_tournament(seconds: float, now=NOW):
    return TournamentFactory(
        status=TournamentStatus.RUNNING, level_started_at=now - 600 * S, level_ends_at=now - seconds * S
    )


def test_every_check_passes__OPS_2(memory_broker):
    alive()
    assert health_report(now=NOW) == (
        200,
        {
            "status": "ok",
            "failing": [],
            "checks": {
                "database": {"status": "ok"},
                "cache": {"status": "ok"},
                "broker": {"status": "ok"},
                "beat": {"status": "ok", "age_seconds": 1.0},
                "worker": {"status": "ok", "age_seconds": 2.0},
                "clock": {"status": "ok", "oldest_overdue_seconds": 0.0},
            },
        },
    )


def test_a_stale_beat_a_silent_worker_and_a_level_overdue_fail__OPS_2(memory_broker):
    heartbeat_stamp(name="beat", now=NOW - 31 * S)
    overdue_tournament(30.5)
    overdue_tournament(12)
    status, body = health_report(now=NOW)
    assert status == 503
    assert body["failing"] == ["beat", "worker", "clock"]
    assert body["checks"]["beat"] == {"status": "fail", "age_seconds": 31.0}
    assert body["checks"]["worker"] == {"status": "fail", "age_seconds": None}
    assert body["checks"]["clock"] == {"status": "fail", "oldest_overdue_seconds": 30.5}


def test_a_level_just_due_is_not_a_failure__OPS_2(memory_broker):
    alive()
    overdue_tournament(health.CLOCK_LATE_AFTER)
    status, body = health_report(now=NOW)
    assert (status, body["checks"]["clock"]) == (200, {"status": "ok", "oldest_overdue_seconds": 30.0})


def test_an_unreachable_broker_is_named__OPS_2():
    alive()
    # Nothing listens on port 1: the connection is refused at once.
    with broker("redis://127.0.0.1:1/0"):
        status, body = health_report(now=NOW)
    assert (status, body["failing"], body["checks"]["broker"]) == (503, ["broker"], {"status": "fail"})


def test_without_the_database_its_facts_are_unknown__OPS_2(memory_broker, monkeypatch):
    def down():
        raise OperationalError("connection to server at 10.0.0.7, port 5432 failed: Connection refused")

    monkeypatch.setattr(selectors, "heartbeats", down)
    status, body = health_report(now=NOW)
    assert status == 503
    assert body == {
        "status": "fail",
        "failing": ["database"],
        "checks": {
            "database": {"status": "fail"},
            "cache": {"status": "ok"},
            "broker": {"status": "ok"},
            "beat": {"status": "unknown", "age_seconds": None},
            "worker": {"status": "unknown", "age_seconds": None},
            "clock": {"status": "unknown", "oldest_overdue_seconds": None},
        },
    }
    assert "10.0.0.7" not in json.dumps(body)


def test_health_needs_no_log_in_sets_no_cookie_and_says_nothing_private__OPS_2(client, memory_broker):
    alive(now=datetime.now(UTC))
    response = client.get("/health/", HTTP_HOST="not-an-allowed-host.example")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies
    text = response.content.decode()
    assert json.loads(text)["status"] == "ok"
    for private in ("cardroom-1", "pid", "127.0.0.1", "memory://", "sqlite", "redis"):
        assert private not in text
    # HEAD for the load balancers that ask that way; other methods are not answered.
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 404


def test_a_poll_costs_two_statements__OPS_2(client, memory_broker, django_assert_num_queries):
    now = datetime.now(UTC)
    alive(now=now)
    overdue_tournament(1, now=now)
    with django_assert_num_queries(2):
        assert client.get("/health/").status_code == 200
    # The same with more tournaments running and overdue.
    for seconds in (2, 3, 4):
        overdue_tournament(seconds, now=now)
    with django_assert_num_queries(2):
        client.get("/health/")
