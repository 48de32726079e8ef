"""The beat's heartbeat (OPS-2): the beat lock's scheduler (cardroom/beat.py) that also stamps
the "beat" heartbeat every 5 seconds while it runs the schedule, the one /health/ and /metrics
read. A beat that waits for the lock, or cannot reach Redis, sends nothing and stamps nothing, so
the heartbeat's age is the age of the schedule's last run. `CELERY_BEAT_SCHEDULER` names it."""

import logging
import os
import socket
import time

from django.db import DatabaseError, connection
from django.utils import timezone

from cardroom.beat import LockedScheduler
from ops.services import BEAT, heartbeat_stamp

logger = logging.getLogger("cardroom.beat")
HEARTBEAT_EVERY = 5.0
RUNS_SCHEDULE = frozenset({"active", "alone"})


class Scheduler(LockedScheduler):
    stamped_at = 0.0  # time.monotonic() of the last stamp; 0: none yet
    stamp_failed = False

    def tick(self, *args, **kwargs):
        interval = super().tick(*args, **kwargs)
        if self.state in RUNS_SCHEDULE and time.monotonic() - self.stamped_at >= HEARTBEAT_EVERY:
            self._stamp()
        # Come back in time for the next stamp, however long the schedule could sleep.
        return min(interval, HEARTBEAT_EVERY)

    def _stamp(self) -> None:
        # Tried once per period, written or not: a database that is down costs the beat's loop
        # one attempt every 5 s, not one a tick.
        self.stamped_at = time.monotonic()
        try:
            # The beat holds one connection for ever: one the database dropped is replaced (never
            # inside a transaction: the tests' own).
            if not connection.in_atomic_block:
                connection.close_if_unusable_or_obsolete()
            heartbeat_stamp(name=BEAT, now=timezone.now(), by=f"{socket.gethostname()} pid {os.getpid()}")
        except DatabaseError as error:
            if not self.stamp_failed:
                logger.warning("beat heartbeat: cannot write to the database (%s); it goes on trying.", error)
            self.stamp_failed = True
            return
        if self.stamp_failed:
            logger.info("beat heartbeat: written again.")
        self.stamp_failed = False
