"""Issue 4: level-rise lateness of the tournament clock (TRN-8) on a real Celery worker and beat,
with Redis as the broker and PostgreSQL. Target: p99 under 250 ms.

Run from the project root:  .venv/bin/python bench/tournament_clock.py
(REDIS_URL defaults to redis://127.0.0.1:6379/13; a fresh cardroom_bench_<pid> database unless
DATABASE_URL is set.) It starts one worker (threads pool, 4 threads) and one beat, then starts
TOURNAMENTS tournaments whose LEVELS levels last 1 s each, and waits until every level has
risen. Nobody calls the clock: the ETA task and the beat reconciler do the rises. Lateness of a
rise = the moment the worker wrote it (its audit record's time) - the level's scheduled start
(the previous level's scheduled end, in the same audit record). It prints the median, p99 and
maximum over every rise, and p99 / 250 ms (the ratio must be under 1).
"""

import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, percentile, prepare_database, setup_django

TOURNAMENTS = 3
LEVELS = 40
LEVEL_SECONDS = 1
TARGET_MS = 250.0


def wait_for(path: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise SystemExit(f"{text!r} not seen in {path}")


def main() -> None:
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
    drop = prepare_database()
    processes: list[subprocess.Popen] = []
    try:
        setup_django()
        from django.contrib.auth.models import User

        from cardroom.models import AuditRecord
        from cardroom.roles import Role
        from cardroom.services import staff_role_grant
        from tournaments.models import Tournament, TournamentLevel
        from tournaments.services.clock import clock_start

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        celery = str(Path(sys.executable).with_name("celery"))
        logs = Path(tempfile.mkdtemp(prefix="clockbench"))
        worker = [celery, "-A", "cardroom", "worker", "--pool=threads", "--concurrency=4", "--loglevel=INFO"]
        worker += [
            f"--hostname=clockbench-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--purge",
        ]
        beat = [celery, "-A", "cardroom", "beat", "--loglevel=INFO", "--schedule", str(logs / "beat")]
        for command, name in ((worker, "worker.log"), (beat, "beat.log")):
            with (logs / name).open("w") as out:
                processes.append(
                    subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
                )
        wait_for(logs / "worker.log", "ready", timeout=60)
        wait_for(logs / "beat.log", "beat: Starting", timeout=60)

        floor = User.objects.create_user(username=f"bench-floor-{os.getpid()}")
        staff_role_grant(user=floor, role=Role.FLOOR.value)
        ids = []
        for number in range(TOURNAMENTS):
            tournament = Tournament.objects.create(
                name=f"Clock bench {number}",
                start_at=datetime.now().astimezone(),
                status="registering",
                prize_cents=1000,
                fee_cents=100,
                starting_stack_chips=10_000,
            )
            TournamentLevel.objects.bulk_create(
                TournamentLevel(
                    tournament=tournament,
                    order=order,
                    small_blind_chips=order * 10,
                    big_blind_chips=order * 20,
                    duration_seconds=LEVEL_SECONDS,
                )
                for order in range(1, LEVELS + 1)
            )
            clock_start(actor=floor, tournament=tournament)
            ids.append(tournament.pk)
        expected = TOURNAMENTS * (LEVELS - 1)
        deadline = time.monotonic() + LEVELS * LEVEL_SECONDS + 30
        rises = AuditRecord.objects.filter(action="clock.rise", object_id__in=[str(pk) for pk in ids])
        while time.monotonic() < deadline and rises.count() < expected:
            time.sleep(0.5)
        records = list(rises)
        lateness = [
            (record.at - datetime.fromisoformat(record.after["level_started_at"])).total_seconds() * 1000
            for record in records
        ]
        if len(records) != expected or not lateness:
            raise SystemExit(f"only {len(records)} of {expected} rises seen; logs in {logs}")
        repeated = len(records) - len({(r.object_id, r.after["current_level_index"]) for r in records})
        p99 = percentile(lateness, 0.99)
        print(f"tournaments={TOURNAMENTS} levels={LEVELS} level_seconds={LEVEL_SECONDS} rises={len(records)}")
        print(f"repeated_rises={repeated}")
        print(f"lateness_median_ms={percentile(lateness, 0.5):.1f}")
        print(f"lateness_p99_ms={p99:.1f}")
        print(f"lateness_max_ms={max(lateness):.1f}")
        print(f"ratio_p99_to_target={p99 / TARGET_MS:.3f}  (target < 1)")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        drop()


if __name__ == "__main__":
    main()
