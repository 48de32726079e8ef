"""The Celery application: the tournament clock, seat-hold timers and rollups run here."""

import os

from celery import Celery, Task

from cardroom.failures import TRANSIENT_ERRORS, close_broken_connections, log_transient

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")


class RoomTask(Task):
    """Every task of the room.

    A task works for one venue (VEN-1): the one whose service sent it (`venue_id`, added by
    cardroom.task_queue.send_on_commit). A task sent with no venue, as beat sends its
    reconcilers, runs once for each venue in turn, its results added up: one venue's overdue
    work is done even when another venue's raised.

    A run that loses its database or Redis connection (PostgreSQL restarted, the connection
    terminated) logs one line, without a traceback, closes what broke and ends: its next run
    opens a fresh connection and does the work. Nothing is lost by it: every task re-checks the
    state it acts on, and beat's reconcilers (every 2 seconds for the clock, the seat holds and
    the pushes) do whatever a lost run left overdue."""

    def __call__(self, *args, **kwargs):
        from cardroom.venues import venue_activate, venue_active_id, venue_all

        try:
            if kwargs.get("venue_id") is not None or venue_active_id() is not None:
                with venue_activate(kwargs.get("venue_id") or venue_active_id()):
                    return super().__call__(*args, **kwargs)
            results = []
            failure = None
            for venue in venue_all():
                with venue_activate(venue):
                    try:
                        results.append(super().__call__(*args, **kwargs))
                    except TRANSIENT_ERRORS:
                        raise
                    except Exception as error:  # the next venue's work still runs
                        failure = failure or error
            if failure is not None:
                raise failure
            return added_up(results)
        except TRANSIENT_ERRORS as error:
            close_broken_connections()
            log_transient(error, where=f"task {self.name}")
            return None


def added_up(results: list):
    """One result for a task run once per venue: numbers and dicts of numbers are added up, and
    anything else is the first venue's."""
    if len(results) == 1:
        return results[0]
    if all(isinstance(result, int) and not isinstance(result, bool) for result in results):
        return sum(results)
    if all(isinstance(result, dict) for result in results):
        total: dict = {}
        for result in results:
            for key, value in result.items():
                total[key] = total.get(key, 0) + value if isinstance(value, int) else value
        return total
    return results[0] if results else None


app = Celery("cardroom", task_cls=RoomTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
