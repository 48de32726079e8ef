"""Browser journey: the TV clock shows a level rise without a reload (TRN-8). The first rise is
the clock task's, on a real Celery worker and beat; the second is the floor pressing "Next
level" on its dashboard in another browser. The screens' layouts, sound, offline counting and
finished state are in test_tv_screens.py."""

import time

import pytest
from django.utils import timezone

from cardroom.models import AuditRecord
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.faults.processes import (
    RedisServer,
    broker_of_this_process,
    start_beat,
    start_worker,
    stop_all,
    wait_for_log,
)
from tests.tournaments.factories import TournamentFactory
from tournaments.services.clock import clock_start

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

FIRST_LEVEL_SECONDS = 6


@pytest.fixture
def clock_worker(tmp_path):
    """A worker and the one beat on a private Redis, which this process sends to as well."""
    redis = RedisServer(tmp_path)
    redis.start()
    worker = start_worker(tmp_path / "worker.log", redis.url, "tvclock")
    beat = start_beat(tmp_path / "beat.log", redis.url, tmp_path / "beat-schedule")
    try:
        wait_for_log(tmp_path / "worker.log", "ready.", timeout=30)
        wait_for_log(tmp_path / "beat.log", "beat: Starting", timeout=30)
        with broker_of_this_process(redis.url):
            yield
    finally:
        stop_all([worker, beat])
        redis.stop()


def shows(page, level_title: str, blinds: str) -> None:
    page.wait_for_function(
        """([title, blinds]) =>
            document.querySelector('[data-field="level_title"]').textContent === title &&
            document.querySelector('[data-field="blinds"]').textContent === blinds""",
        arg=[level_title, blinds],
        timeout=FIRST_LEVEL_SECONDS * 1000 + 5000,
    )


@pytest.mark.redis
def test_tv_clock_shows_level_rises_without_a_reload__TRN_8(browser, page, live_server, floor, clock_worker):
    tournament = TournamentFactory(
        name="Sunday Deep Stack",
        levels=[(25, 50, FIRST_LEVEL_SECONDS), (50, 100, 600), (100, 200, 600), (150, 300, 600)],
    )
    started = clock_start(actor=floor, tournament=tournament)

    page.goto(f"{live_server.url}/tv/{tournament.pk}/")  # the room's screen: no log-in
    shows(page, "Level 1", "25 / 50")
    page.evaluate("window.loadedOnce = true")  # gone if the page reloads
    screenshot(page, "tv-clock-level-1")

    # The worker's clock task raises level 2 at its time; the screen follows by itself.
    shows(page, "Level 2", "50 / 100")
    screenshot(page, "tv-clock-level-2-by-the-clock-task")
    # The screen counts down by itself and may show level 2 just before the worker's commit.
    deadline = time.monotonic() + 5
    while (
        rise := AuditRecord.objects.filter(action="clock.rise", object_id=str(tournament.pk)).first()
    ) is None:
        assert time.monotonic() < deadline, "the worker did not raise level 2 within 5 s of the screen"
        time.sleep(0.1)
    assert (rise.actor_name, rise.after["current_level_index"]) == ("system", 1)
    assert rise.after["level_started_at"] == started.level_ends_at.isoformat()
    assert page.inner_text("[data-field=next]") == "100 / 200"

    # The floor steps to the next level from the dashboard in another browser.
    floor_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    floor_page = floor_context.new_page()
    floor_page.set_default_timeout(10_000)
    try:
        log_in(floor_page, live_server, "floor1", PASSWORD)
        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        floor_page.get_by_role("button", name="Next level", exact=True).click()
        floor_page.wait_for_selector("text=Moved to the next level.")
        pressed_at = timezone.now()
    finally:
        floor_context.close()
    shows(page, "Level 3", "100 / 200")
    shown_after = timezone.now() - pressed_at
    screenshot(page, "tv-clock-level-3-by-the-floor")

    assert page.evaluate("window.loadedOnce") is True
    assert shown_after.total_seconds() < 3  # a poll a second (TRN-8: within a second or two)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_level_index) == ("running", 2)
    assert AuditRecord.objects.filter(action="clock.next_level", actor_name="floor1").count() == 1
    assert books_problems() == []
