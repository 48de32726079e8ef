"""/health/ names what is down (OPS-2): a real Celery worker and beat on a private redis-server
and the test's PostgreSQL database, and /health/ asked (through the Django test client, so the
web's database connection can be pointed away) while the database, then Redis, then the worker
is unavailable. Each time it answers 503 and its body names the check that failed, and nothing
private: no host, port, URL or exception text. Between the faults it is 200 again by itself."""

import json
import time

import pytest
from django.db import connection
from django.test import Client, override_settings

from ops import health
from reports.selectors.books import books_problems
from tests.faults.processes import RedisServer, celery_processes, free_port, kill

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.long,
    pytest.mark.django_db(transaction=True),
]
# Heartbeats come every 5 s; a shorter limit than production's 30 s keeps the test short.
STALE_AFTER = 8.0


def ask(client) -> tuple[int, dict, str]:
    response = client.get("/health/")
    text = response.content.decode()
    return response.status_code, json.loads(text), text


def wait_for(client, predicate, timeout: float, what: str) -> tuple[int, dict, str]:
    deadline = time.monotonic() + timeout
    while True:
        answer = ask(client)
        if predicate(answer):
            return answer
        assert time.monotonic() < deadline, f"{what} not seen in {timeout} s; last answer {answer[1]}"
        time.sleep(0.5)


def says_nothing_private(text: str, redis: RedisServer) -> bool:
    private = ("127.0.0.1", str(redis.port), "5432", "redis://", "postgres", "refused", "Error", "pid")
    return not any(word in text for word in private)


def test_health_names_the_database_then_redis_then_the_worker__OPS_2(tmp_path, monkeypatch):
    monkeypatch.setattr(health, "STALE_AFTER", STALE_AFTER)
    redis = RedisServer(tmp_path)
    redis.start()
    cache = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis.url}}
    client = Client()
    try:
        with (
            override_settings(CACHES=cache),
            celery_processes(tmp_path, redis.url, "health") as (start_one, *_),
        ):
            worker = start_one("worker")
            start_one("beat")
            healthy = wait_for(client, lambda a: a[0] == 200, 60, "a healthy system")
            assert says_nothing_private(healthy[2], redis)

            # The database: the web's connection pointed at a port nothing listens on.
            port = connection.settings_dict["PORT"]
            connection.close()
            connection.settings_dict["PORT"] = str(free_port())
            try:
                status, body, text = ask(client)
            finally:
                connection.close()
                connection.settings_dict["PORT"] = port
            assert (status, body["failing"]) == (503, ["database"])
            assert [body["checks"][name]["status"] for name in ("beat", "worker", "clock")] == ["unknown"] * 3
            assert says_nothing_private(text, redis)

            # Redis, the cache and the broker: stopped.
            redis.stop()
            status, body, text = ask(client)
            assert status == 503
            assert {"cache", "broker"} <= set(body["failing"]) and "database" not in body["failing"]
            assert says_nothing_private(text, redis)
            redis.start()
            wait_for(client, lambda a: a[0] == 200, 60, "a healthy system after Redis came back")

            # The worker: killed. Its heartbeat goes stale; the beat's does not.
            kill(worker)
            status, body, text = wait_for(
                client, lambda a: "worker" in a[1]["failing"], 30, "the worker named"
            )
            assert (status, body["failing"]) == (503, ["worker"])
            assert body["checks"]["worker"]["age_seconds"] > STALE_AFTER
            assert body["checks"]["beat"]["status"] == "ok"
            assert says_nothing_private(text, redis)
    finally:
        redis.stop()
    assert books_problems() == []
