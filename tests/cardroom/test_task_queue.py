"""A service sends a task by its name, after commit (cardroom/task_queue.py): the services never
import their app's tasks, so no import circle runs through the task modules."""

from datetime import UTC, datetime
from unittest import mock

import pytest

from cardroom.celery import app
from cardroom.selectors import venue_get
from cardroom.task_queue import send_on_commit

ETA = datetime(2026, 3, 6, 18, 10, tzinfo=UTC)
# on_commit needs a connection, though nothing is read or written.
pytestmark = pytest.mark.django_db


def test_a_task_this_process_has_not_loaded_is_published_by_name(django_capture_on_commit_callbacks):
    with mock.patch.object(app, "send_task") as send_task:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            send_on_commit("reports.not_loaded_here", eta=ETA, day="2026-03-06")
        send_task.assert_not_called()  # nothing leaves before the commit
        callbacks[0]()
    send_task.assert_called_once_with(
        "reports.not_loaded_here", (), {"day": "2026-03-06", "venue_id": venue_get().pk}, eta=ETA
    )


def test_a_loaded_task_is_sent_through_its_own_apply_async(django_capture_on_commit_callbacks):
    from tournaments.tasks import clock_tick

    with (
        mock.patch.object(clock_tick, "apply_async") as apply_async,
        mock.patch.object(app, "send_task") as send_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        send_on_commit("tournaments.clock_tick", eta=ETA, tournament_id=7, due=ETA.isoformat())
    apply_async.assert_called_once_with(
        (), {"tournament_id": 7, "due": ETA.isoformat(), "venue_id": venue_get().pk}, eta=ETA
    )
    send_task.assert_not_called()
