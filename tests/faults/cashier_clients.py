"""The cashiers' side of the money storm (tests/faults/test_money_faults.py): what the desks ask
for, the impatient clients that ask it of a real gunicorn, and the kill of a web worker in the
middle of its transactions.

Every request goes to the cage's one door, `POST /api/cashier/transactions/` (CAG-6), with
integer cents. A player's requests make a script that only makes sense in order (buy-in, top-ups,
cash-out), so a client sends a step only once an earlier step of that player has been answered;
a copy of a step already answered may still be sent at any time (a late retry).
"""

import http.client
import json
import os
import random
import signal
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import transaction

from cashier.models import ReceiptCounter
from tests.faults.processes import children, database_client_ports, sessions_waiting_on

PATH = "/api/cashier/transactions/"
IMPATIENT = 0.3  # the share of attempts whose client gives up after 5-150 ms
MAX_ATTEMPTS = 60


@dataclass
class Step:
    """One money request: its key, the desk that sends it, and the JSON body of every retry."""

    key: str
    player: int
    index: int  # its place in the player's script
    token: str
    data: dict
    body: str = field(init=False)

    def __post_init__(self):
        self.body = json.dumps(self.data)


def request(port: int, step: Step, *, data: dict | None = None, timeout: float = 30.0):
    """One POST of `step` (or of `data` under its key): (status, body, Idempotent-Replayed)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {
        "Content-Type": "application/json",
        "Authorization": f"Token {step.token}",
        "Idempotency-Key": step.key,
    }
    try:
        conn.request("POST", PATH, body=step.body if data is None else json.dumps(data), headers=headers)
        response = conn.getresponse()
        text = response.read()
        return response.status, text, response.getheader("Idempotent-Replayed")
    finally:
        conn.close()


class Clients:
    """The cashiers' clients: each send of a key retries (same key, same body) until answered."""

    def __init__(self, port: int, steps: dict[str, Step], seed: int):
        self.port = port
        self.steps = steps
        rng = random.Random(seed)
        sends = [key for key in steps for _ in range(rng.choice([1, 1, 2, 3]))]
        rng.shuffle(sends)
        self.queue = sends
        self.total = len(sends)
        self.done = 0
        # How many steps of each player have been answered: the next one may be sent now.
        self.answered_steps: dict[int, int] = defaultdict(int)
        self.lock = threading.Lock()
        self.answers: dict[str, list[tuple]] = defaultdict(list)
        self.stats = Counter()
        self.unexpected: list[str] = []

    def count(self, name: str) -> None:
        with self.lock:
            self.stats[name] += 1

    def attempt(self, step: Step, rng: random.Random) -> tuple | None:
        impatient = rng.random() < IMPATIENT
        try:
            status, text, replayed = request(
                self.port, step, timeout=rng.uniform(0.005, 0.15) if impatient else 30.0
            )
        except TimeoutError:
            self.count("client_timeouts")
            return None
        except (OSError, http.client.HTTPException):
            # The worker died under the request: reset, or closed without an answer.
            self.count("connections_dropped")
            return None
        body = json.loads(text) if text.startswith(b"{") else {}
        if status == 503 and body.get("code") == "service_unavailable":
            # The database went away under the request (cardroom/failures.py): the answer says
            # to send it again with the same key, as a desk would.
            self.count("unavailable")
            return None
        if (status, replayed) in ((201, "false"), (200, "true")):
            self.count("replayed" if replayed == "true" else "created")
            return ("done", body["id"], body["receipt_number"])
        if status in (400, 403, 404, 409) and body.get("code"):
            self.count(f"refused:{body['code']}")
            return ("refused", body["code"])
        with self.lock:
            self.unexpected.append(f"{step.key}: {status} {replayed} {text[:300]!r}")
        return ("unexpected", status)

    def _next(self) -> Step | None:
        """A send whose step may go now (under self.lock); None when none may yet."""
        for at, key in enumerate(self.queue):
            step = self.steps[key]
            if step.index <= self.answered_steps[step.player]:
                del self.queue[at]
                return step
        return None

    def run(self, seed: int) -> None:
        rng = random.Random(seed)
        while True:
            with self.lock:
                if not self.queue:
                    return
                step = self._next()
            if step is None:  # every ready step is in other clients' hands
                time.sleep(0.01)
                continue
            for _ in range(MAX_ATTEMPTS):
                answer = self.attempt(step, rng)
                if answer is not None:
                    break
                time.sleep(rng.uniform(0.0, 0.05))
            else:
                answer = ("no answer", MAX_ATTEMPTS)
            with self.lock:
                self.answers[step.key].append(answer)
                self.done += 1
                if self.answered_steps[step.player] == step.index:
                    self.answered_steps[step.player] += 1


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def kill_mid_transaction(master: int) -> tuple[int, int]:
    """Hold the receipt counter's row lock until requests queue up behind it (each has written
    its session, posting, entries and audit record in an open transaction), SIGKILL the web
    worker with the most of them, then let the rest go. Returns (victim, its transactions in
    flight)."""
    with transaction.atomic():
        ReceiptCounter.objects.select_for_update().get()
        started = time.monotonic()
        while True:
            waiting = sessions_waiting_on(ReceiptCounter._meta.db_table)
            in_flight = {pid: database_client_ports(pid) & waiting for pid in children(master)}
            victim = max(in_flight, key=lambda pid: len(in_flight[pid]))
            # Two in flight in one worker is the usual case; after 5 s one will do.
            if len(in_flight[victim]) >= 2 or (in_flight[victim] and time.monotonic() - started > 5):
                break
            if time.monotonic() - started > 20:
                raise AssertionError("no request reached the receipt counter")
            time.sleep(0.02)
        os.kill(victim, signal.SIGKILL)
        return victim, len(in_flight[victim])
