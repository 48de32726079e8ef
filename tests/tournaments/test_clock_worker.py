"""The clock on a real Celery worker and beat (TRN-8): levels rise on time with nobody calling.

Runs in CI's PostgreSQL and Redis pass: the worker and beat are separate processes (exactly one
beat), pointed at this test's database, and the test only watches the database.
"""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.utils import timezone

from cardroom.models import AuditRecord
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.services.clock import clock_start

BASE_DIR = Path(settings.BASE_DIR)
CELERY = str(Path(sys.executable).with_name("celery"))
LEVEL_SECONDS = 2
ON_TIME = timedelta(milliseconds=1500)


def database_url() -> str:
    db = settings.DATABASES["default"]
    user = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        user += ":" + quote(db["PASSWORD"])
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_for(path: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not seen in {path.name}:\n{path.read_text(errors='replace')[-3000:]}")


@pytest.mark.long
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_levels_rise_on_time_with_real_worker_and_beat__TRN_8(floor, tmp_path):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL: a real worker on Redis")
    env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_DEBUG": "1", "PYTHONUNBUFFERED": "1"}
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    processes = []
    try:
        worker = [CELERY, "-A", "cardroom", "worker", "--pool=threads", "--concurrency=4", "--loglevel=INFO"]
        worker += [
            f"--hostname=clocktest-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--purge",
        ]
        beat = [CELERY, "-A", "cardroom", "beat", "--loglevel=INFO", "--schedule", str(tmp_path / "beat")]
        for command, log in ((worker, worker_log), (beat, beat_log)):
            with log.open("w") as out:
                processes.append(
                    subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
                )
        wait_for(worker_log, "ready.", timeout=30)
        wait_for(beat_log, "beat: Starting", timeout=30)

        tournament = TournamentFactory(
            levels=[
                (25, 50, LEVEL_SECONDS),
                (50, 100, LEVEL_SECONDS),
                ("break", LEVEL_SECONDS, ""),
                (100, 200, 2),
            ]
        )
        tournament = clock_start(actor=floor, tournament=tournament)  # the ETA message goes after commit
        t0 = tournament.level_started_at
        scheduled = {index: t0 + timedelta(seconds=LEVEL_SECONDS * index) for index in (1, 2, 3)}
        seen: dict[int, object] = {}
        deadline = time.monotonic() + LEVEL_SECONDS * 4 + 5
        while time.monotonic() < deadline and len(seen) < 3:
            index = Tournament.objects.values_list("current_level_index", flat=True).get(pk=tournament.pk)
            for reached in range(1, index + 1):
                seen.setdefault(reached, timezone.now())
            time.sleep(0.02)
        # Wait past the last level's end, so a repeated rise would show.
        time.sleep(max(0.0, (t0 + timedelta(seconds=LEVEL_SECONDS * 4 + 1) - timezone.now()).total_seconds()))

        tournament.refresh_from_db()
        lateness = {index: seen[index] - scheduled[index] for index in seen}
        assert sorted(seen) == [1, 2, 3], (lateness, worker_log.read_text()[-3000:])
        for index, late in lateness.items():
            assert late < ON_TIME, f"level {index} rose {late} late"
        assert (tournament.status, tournament.current_level_index, tournament.level_ends_at) == (
            "running",
            3,
            None,
        )
        assert tournament.level_started_at == scheduled[3]
        rises = AuditRecord.objects.filter(action="clock.rise", object_id=str(tournament.pk)).order_by("id")
        assert [
            (r.after["current_level_index"], r.after["level_started_at"], r.actor_name) for r in rises
        ] == [(index, scheduled[index].isoformat(), "system") for index in (1, 2, 3)]
        assert (
            AuditRecord.objects.filter(action="clock.last_level_open", object_id=str(tournament.pk)).count()
            == 1
        )
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
