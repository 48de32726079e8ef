"""The Celery application: the tournament clock, seat-hold timers and rollups run here."""

import os

from celery import Celery, Task

from cardroom.failures import TRANSIENT_ERRORS, close_broken_connections, log_transient

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")


class RoomTask(Task):
    """Every task of the room. A run that loses its database or Redis connection (PostgreSQL
    restarted, the connection terminated) logs one line, without a traceback, closes what broke
    and ends: its next run opens a fresh connection and does the work. Nothing is lost by it:
    every task re-checks the state it acts on, and beat's reconcilers (every 2 seconds for the
    clock, the seat holds and the pushes) do whatever a lost run left overdue."""

    def __call__(self, *args, **kwargs):
        try:
            return super().__call__(*args, **kwargs)
        except TRANSIENT_ERRORS as error:
            close_broken_connections()
            log_transient(error, where=f"task {self.name}")
            return None


app = Celery("cardroom", task_cls=RoomTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
