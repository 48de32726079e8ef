"""`/health/` (OPS-2): is everything the room needs alive? For the load balancer and the
monitoring, polled every few seconds, so it is cheap: two database statements (the heartbeats and
the oldest overdue level, pinned in tests/ops/test_health.py) and one round trip to Redis for the
cache and one for the broker, each bounded by a one-second timeout.

It answers 200 when every check passes and 503 otherwise, with a JSON body naming each check
and its state ("ok", "fail", or "unknown" when the database that holds its facts is down), the
ages that decided it, and the failing ones. It needs no log-in and says nothing private: no
host, address, URL or exception text (the operator's log has the exception)."""

import contextlib
import logging
import sqlite3
from datetime import datetime
from functools import cache
from pathlib import Path

import redis
from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from kombu import Connection

from cardroom.celery import app
from ops import selectors
from ops.services import BEAT, WORKER

logger = logging.getLogger("cardroom.health")

OK, FAIL, UNKNOWN = "ok", "fail", "unknown"
# A heartbeat older than this (seconds) fails its check: the beat stamps its own every 5 s
# while it runs the schedule, and a worker runs the heartbeat task the beat sends every 5 s.
STALE_AFTER = 30.0
# A level overdue for longer than this (seconds) fails the clock's check: the reconciler raises
# an overdue level within 2 s, and a beat taking over from a dead one within 11 s.
CLOCK_LATE_AFTER = 30.0
# No check waits longer than this (seconds) for Redis or the broker.
TIMEOUT = 1.0
CACHE_KEY = "cardroom:health"


@cache
def _redis(url: str) -> redis.Redis:
    """One client (and connection pool) per URL and process, with short timeouts."""
    return redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)


def _cache_ok() -> bool:
    config = settings.CACHES["default"]
    if config["BACKEND"].endswith("RedisCache"):
        location = config["LOCATION"]
        url = location[0] if isinstance(location, list | tuple) else location
        return bool(_redis(url).set(CACHE_KEY, "1", ex=10))
    cache_backend = caches["default"]
    cache_backend.set(CACHE_KEY, "1", 10)
    return cache_backend.get(CACHE_KEY) == "1"


def _broker_ok() -> bool:
    url = app.conf.broker_url or ""
    if url.startswith(("redis://", "rediss://")):
        return bool(_redis(url).ping())
    if url.startswith("sqlalchemy+sqlite:///"):
        # The embedded broker's file (make run): there, and a database.
        path = Path(url.split("sqlite:///", 1)[1]).resolve()
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=TIMEOUT)) as db:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return True
    with Connection(url, connect_timeout=TIMEOUT) as broker:
        broker.ensure_connection(max_retries=1)
    return True


def _probe(name: str, check) -> str:
    try:
        return OK if check() else FAIL
    except Exception as error:
        logger.warning("health: the %s check failed: %r", name, error)
        return FAIL


def _age(at: datetime | None, now: datetime) -> float | None:
    return None if at is None else round(max((now - at).total_seconds(), 0.0), 1)


def _heartbeat(beats: dict | None, name: str, now: datetime) -> dict:
    if beats is None:
        return {"status": UNKNOWN, "age_seconds": None}
    age = _age(beats.get(name), now)
    return {"status": OK if age is not None and age <= STALE_AFTER else FAIL, "age_seconds": age}


def _clock(overdue, now: datetime) -> dict:
    if overdue is None:
        return {"status": UNKNOWN, "oldest_overdue_seconds": None}
    age = _age(overdue.oldest, now) or 0.0
    return {"status": OK if age <= CLOCK_LATE_AFTER else FAIL, "oldest_overdue_seconds": age}


def health_report(*, now: datetime) -> tuple[int, dict]:
    """(HTTP status, JSON body) of /health/ at `now`."""
    try:
        beats = selectors.heartbeats()
        overdue = selectors.clock_overdue(now=now)
        database = OK
    except DatabaseError as error:
        logger.warning("health: the database check failed: %r", error)
        # A connection that failed is not reused by the next poll.
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()
        beats = overdue = None
        database = FAIL
    checks = {
        "database": {"status": database},
        "cache": {"status": _probe("cache", _cache_ok)},
        "broker": {"status": _probe("broker", _broker_ok)},
        BEAT: _heartbeat(beats, BEAT, now),
        WORKER: _heartbeat(beats, WORKER, now),
        "clock": _clock(overdue, now),
    }
    failing = [name for name, check in checks.items() if check["status"] == FAIL]
    healthy = not failing and database == OK
    return (200 if healthy else 503), {
        "status": OK if healthy else FAIL,
        "failing": failing,
        "checks": checks,
    }
