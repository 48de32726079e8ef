"""Exactly one beat, however many servers (OPS-2).

Every server of an installation may run `celery -A cardroom beat`; only the beat that holds the
beat lock in Redis sends the schedule's tasks. The lock is one Redis key with a short expiry
(`LOCK_SECONDS`) that the running beat renews from its loop about once a second. A beat started
while another holds the lock waits and sends nothing (it says so once in its log), and takes the
lock when the holder stops renewing it: killed, its server gone, cut off from Redis. A beat
stopped cleanly gives the lock back, so a restart hands over within a second.

On the embedded default (no Redis: `make run` with nothing but Python) there is no lock: the one
beat `bin/run` starts runs the schedule as Celery's own scheduler does.

Every task the schedule sends is idempotent (each re-checks the state under its row lock), so a
holder frozen past its lock's expiry that sends one more round before it notices is harmless;
what the lock prevents is two beats sending every round, for ever.
"""

import contextlib
import logging
import os
import socket
import time
import uuid

import redis
from celery.beat import PersistentScheduler
from django.conf import settings

logger = logging.getLogger("cardroom.beat")

LOCK_KEY = "cardroom:beat-lock"
# How long the lock outlives its holder's last renewal (seconds): a killed beat's successor
# takes over within this, plus one standby poll.
LOCK_SECONDS = 10.0
# The holder renews at most this often (seconds): one Redis round trip a second.
RENEW_EVERY = 1.0
# A beat that does not hold the lock tries to take it this often (seconds).
STANDBY_POLL = 1.0
# A Redis that does not answer within this (seconds) counts as unreachable: the beat sends
# nothing rather than block its loop.
REDIS_TIMEOUT = 2.0

# Renew or give back the lock only while it is still ours (the value is the holder's token).
_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call(%s) end return 0"
_RENEW = _IF_OURS % "'pexpire', KEYS[1], ARGV[2]"
_RELEASE = _IF_OURS % "'del', KEYS[1]"


def this_beat() -> str:
    """How a beat names itself in the lock and the logs: host and process id."""
    return f"{socket.gethostname()} pid {os.getpid()}"


class BeatLock:
    """The beat lock in Redis. `hold()` is called from the beat's loop; a Redis error reaches
    the caller (the scheduler), which then sends nothing."""

    def __init__(self, client: redis.Redis, *, key: str = "", seconds: float = LOCK_SECONDS):
        self.client = client
        self.key = key or LOCK_KEY
        self.ttl_ms = int(seconds * 1000)
        self.seconds = seconds
        # The value of the key while this beat holds it: its name, made unique per start.
        self.token = f"{this_beat()} #{uuid.uuid4().hex[:8]}"
        self.held = False
        self._confirmed_at = 0.0  # time.monotonic() of the last take or renewal
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def hold(self, now: float | None = None) -> bool:
        """Whether this beat holds the lock now: renewed if it was ours (at most once per
        RENEW_EVERY), taken if it is free. False while another beat holds it."""
        now = time.monotonic() if now is None else now
        if self.held and now - self._confirmed_at < RENEW_EVERY:
            return True
        if self.held and self._renew(keys=[self.key], args=[self.token, self.ttl_ms]) == 1:
            self._confirmed_at = now
            return True
        self.held = bool(self.client.set(self.key, self.token, nx=True, px=self.ttl_ms))
        if self.held:
            self._confirmed_at = now
        return self.held

    def holder(self) -> str:
        """The name of the beat holding the lock ("" when nobody does)."""
        value = self.client.get(self.key)
        return value.decode() if isinstance(value, bytes) else (value or "")

    def release(self) -> None:
        """Give the lock back, if it is still ours, so a waiting beat takes over at once."""
        if self.held:
            self.held = False
            self._release(keys=[self.key], args=[self.token])


def redis_url_of(broker_url: str, redis_url: str) -> str:
    """Where the beats of one installation meet: its Redis broker, else its REDIS_URL; "" on the
    embedded default."""
    if broker_url.startswith(("redis://", "rediss://")):
        return broker_url
    return redis_url


def lock_for(url: str, **kwargs) -> BeatLock | None:
    if not url:
        return None
    client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
    return BeatLock(client, **kwargs)


class LockedScheduler(PersistentScheduler):
    """Celery's persistent scheduler that sends nothing unless it holds the beat lock
    (`CELERY_BEAT_SCHEDULER` in cardroom/settings.py)."""

    def __init__(self, *args, **kwargs):
        app = kwargs.get("app") or args[0]
        self.lock = lock_for(redis_url_of(app.conf.broker_url or "", settings.REDIS_URL))
        self.state = ""  # "active", "standby", "unreachable" or "alone": logged when it changes
        self.waited_for = ""  # the holder this beat saw last while it waited
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs):
        if self.lock is None:
            self._log("alone", "no Redis: this beat runs the schedule alone (start exactly one).")
            return super().tick(*args, **kwargs)
        if not self._holds_lock():
            return STANDBY_POLL
        # Come back in time to renew the lock, however long the schedule could sleep.
        return min(super().tick(*args, **kwargs), RENEW_EVERY)

    def _holds_lock(self) -> bool:
        try:
            if self.lock.hold():
                self._active()
                return True
            holder = self.lock.holder() or "another beat"
        except redis.RedisError as error:
            self.lock.held = False
            self._log("unreachable", "cannot reach Redis (%s): this beat sends nothing meanwhile.", error)
            return False
        self._standby(holder)
        return False

    def _active(self) -> None:
        if self.state == "active":
            return
        if self.waited_for:
            self._log(
                "active",
                "%s took over the schedule from %s (its lock expired or was given back).",
                self.lock.token,
                self.waited_for,
            )
        else:
            self._log("active", "%s holds the beat lock and runs the schedule.", self.lock.token)
        self.waited_for = ""

    def _standby(self, holder: str) -> None:
        if self.state == "active":
            self._log("standby", "%s holds the beat lock now: this beat stops sending and waits.", holder)
        elif holder != self.waited_for:
            self._log(
                "standby",
                "%s holds the beat lock: this beat (%s) waits and sends nothing; it takes over "
                "within %d s if that beat stops.",
                holder,
                self.lock.token,
                self.lock.seconds,
                again=True,
            )
        self.waited_for = holder

    def _log(self, state: str, message: str, *args, again: bool = False) -> None:
        """Log a change of state (or, with `again`, a new holder while waiting)."""
        if state != self.state or again:
            (logger.warning if state == "unreachable" else logger.info)("beat lock: " + message, *args)
        self.state = state

    def close(self):
        try:
            super().close()
        finally:
            if self.lock is not None:
                # Unreachable, it expires by itself within LOCK_SECONDS.
                with contextlib.suppress(redis.RedisError):
                    self.lock.release()
