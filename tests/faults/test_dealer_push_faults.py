"""The dealer rotation under faults (DLR-2): the worker is killed while it holds a push's ETA
message; after its restart every push is carried out exactly once, each round at its own time,
and copies of a push's message change nothing.

A real worker and beat on a private redis-server, on this test's PostgreSQL database, with the
rotation 600 times faster (DEALERS_TIME_SCALE: a 30-minute push every 3 seconds, the 15-minute
break 1.5 seconds). The test clocks four dealers in at three tables and then only watches the
database and the audit trail: each carried-out push is one `dealer.push` record by "system".
"""

import time
from datetime import timedelta
from itertools import pairwise

import pytest
from django.utils import timezone

from cardroom.models import AuditRecord
from dealers.models import Assignment, Dealer, Push, PushStatus
from dealers.services.shifts import shift_clock_in
from dealers.tasks import push_due
from poker.rotation import next_push
from tests.cashgame.conftest import make_game, make_table
from tests.faults.processes import (
    RedisServer,
    celery_processes,
    kill,
    stop_all,
    wait_for_line,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

SCALE = 600
PUSH = timedelta(minutes=30) / SCALE
RECEIVED_PUSH = ("Task dealers.push_due[", "] received")


@pytest.fixture
def celery(tmp_path, monkeypatch, settings):
    settings.DEALERS_TIME_SCALE = SCALE
    monkeypatch.setenv("DEALERS_TIME_SCALE", str(SCALE))  # the worker's and the beat's too
    server = RedisServer(tmp_path)
    server.start()
    with celery_processes(tmp_path, server.url, "dealerfaults") as processes:
        yield processes
    server.stop()


def wait_for_round(due, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Push.objects.filter(due_at=due, status=PushStatus.DONE).exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"the push round at {due} was never carried out")


@pytest.mark.long
def test_worker_killed_holding_a_push_carries_out_every_push_once_after_restart__DLR_2(floor, celery):
    start_one, started, logs = celery
    start_one("worker")
    start_one("beat")
    game = make_game()
    for number in (1, 2, 3):
        make_table(game, number)
    # Just after a push time, so the first round is a whole push away.
    time.sleep(max(0.0, (next_push(timezone.now(), PUSH) - timezone.now()).total_seconds()) + 0.1)
    clocked_in = timezone.now()
    for name in ("Eva", "Jana", "Marek", "Peter"):
        shift_clock_in(actor=floor, dealer=Dealer.objects.create(name=name), now=clocked_in)
    first = next_push(clocked_in, PUSH)

    # The worker holds a round's ETA message, unacknowledged, when it is killed (the first
    # round's, unless this loaded machine was slower than a push: then a later one's).
    # Waits for the processes are liveness bounds, not measures: a loaded machine (CI shares two
    # cores) may take longer to hand a message over or to catch up after the restart, and a pass
    # waits no longer for a larger bound. What is timed is checked on the rows (each round's
    # places start at its due time), never on the wall clock.
    wait_for_line(logs / "worker.log", *RECEIVED_PUSH, timeout=30)
    kill(started["worker"])
    killed_at = timezone.now()
    held = Push.objects.filter(status=PushStatus.PENDING, due_at__gt=killed_at).order_by("due_at").first()
    assert held is not None
    time.sleep(max(0.0, (held.due_at + PUSH + timedelta(seconds=0.5) - timezone.now()).total_seconds()))
    assert not Push.objects.filter(due_at__gte=held.due_at, status=PushStatus.DONE).exists()  # nobody pushed
    start_one("worker")
    # Copies of the next round's message, which the worker's four threads run with the original.
    following = next_push(timezone.now(), PUSH)
    for _ in range(3):
        push_due.apply_async(kwargs={"due": following.isoformat()}, eta=following)
    last = following + PUSH
    wait_for_round(last, timeout=(last - timezone.now()).total_seconds() + 30)
    stop_all(started.values())
    started.clear()

    done = list(Push.objects.filter(status=PushStatus.DONE, due_at__gt=clocked_in).order_by("due_at", "pk"))
    rounds = sorted({push.due_at for push in done})
    # Every round from the first to the last, none lost, each at its own time.
    assert [due for due in rounds if due <= last] == [
        first + PUSH * i for i in range(int((last - first) / PUSH) + 1)
    ]
    assert not Push.objects.filter(status=PushStatus.SKIPPED).exists()
    # Exactly one audit record per push carried out, and none for any other.
    records = list(
        AuditRecord.objects.filter(action__startswith="dealer.push").values_list("object_id", "actor_name")
    )
    assert sorted(records) == sorted(
        (str(p.pk), "system") for p in Push.objects.filter(status=PushStatus.DONE)
    )
    # Each round's new places start at its scheduled time; nobody is ever at two places at once.
    for push in done:
        if push.kind != "free":
            assert Assignment.objects.filter(dealer_id=push.dealer_id, since=push.due_at).count() == 1
    for dealer in Dealer.objects.all():
        rows = list(Assignment.objects.filter(dealer=dealer, kind="table").order_by("since"))
        for before, after in pairwise(rows):
            assert before.until is not None and before.until <= after.since
