"""How a service sends a task: by the task's name, once its transaction has committed.

A service never imports its app's `tasks` module: the tasks are thin interfaces that call the
services, so an import the other way would close a circle (docs/architecture.md, "Layers"). The
service names the task instead (`"tournaments.clock_tick"`, the `name=` of its `shared_task`),
and Celery's signature by name finds it: a process that has loaded the task (a worker, the tests,
`CELERY_TASK_ALWAYS_EAGER`) calls the task's own `apply_async`; any other process publishes the
message by name for a worker to run.

The message goes after commit, so a worker never acts on a row it cannot see yet, and a rolled
back service sends nothing (STYLE.md, "Celery").
"""

from datetime import datetime
from functools import partial

from django.db import transaction

from cardroom.celery import app
from cardroom.venues import venue_id_current


def send_on_commit(name: str, *, eta: datetime, robust: bool = False, **kwargs) -> None:
    """Send the task `name` with these keyword arguments (ids and ISO times only), to run at
    `eta`, when the current transaction commits. The task works for the venue the service works
    for (cardroom.celery.RoomTask). `robust`: a failure to send is logged and the other
    callbacks of the commit still run (a player's notice, NOT-1, never stops the floor's own
    messages, such as the seat hold's timer)."""
    kwargs.setdefault("venue_id", venue_id_current())
    send = partial(app.signature(name, kwargs=kwargs).apply_async, eta=eta)
    # Django names a robust callback that failed by its __qualname__, which a partial lacks.
    send.__qualname__ = f"send_on_commit({name})"
    transaction.on_commit(send, robust=robust)
