"""Failures from outside a request: the database, Redis or the broker lost in the middle.

Such a request did nothing that lasts (its transaction rolled back with the connection) or, when
the broker failed after the commit, did its work once and stored its request key with it. Either
way the right answer is the same: try again in a moment, with the same request key (CAG-2). So
the API answers `503` with `Retry-After`, in its one error shape, and says exactly that; a page
says it in plain words. Periodic tasks log one line and leave the work to their next run.

`TRANSIENT_ERRORS` names the failures; `unavailable_response()` and `unavailable_page()` are the
answers; `remember_failure` (connected to `got_request_exception`) keeps the exception of a
request that escaped every view, for `cardroom.middleware.FailureMiddleware`.
"""

import logging
import sys

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("cardroom.failures")

# A lost or refused database connection (psycopg's OperationalError covers a terminated
# backend, a restart, a lock or statement timeout, a deadlock), a connection Django already
# knows is closed (InterfaceError), and Redis or the broker out of reach.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError, BrokerError)
RETRY_AFTER_SECONDS = 5
FAILURE_ATTRIBUTE = "_cardroom_failure"


def is_transient(error: BaseException | None) -> bool:
    return isinstance(error, TRANSIENT_ERRORS)


def describe(error: BaseException) -> str:
    """One line for the log: the kind of failure and its first line, no traceback."""
    first_line = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__module__}.{type(error).__name__}: {first_line}"


def unavailable_body() -> dict[str, str]:
    return {
        "code": "service_unavailable",
        "detail": _(
            "The room's database could not be reached, so this request may not have been carried "
            "out. Send it again in %(seconds)d seconds: a money request sent again with the same "
            "request key is never carried out twice."
        )
        % {"seconds": RETRY_AFTER_SECONDS},
        "rule": "CAG-2",
    }


def unavailable_response() -> JsonResponse:
    response = JsonResponse(unavailable_body(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def unavailable_page(request) -> HttpResponse:
    """A page's answer: plain words, no database (the page shell reads the venue from it). A
    form sent again must be the same form, with its request key: back, not a fresh page."""
    again = request.get_full_path() if request.method == "GET" else ""
    body = render_to_string("503.html", {"seconds": RETRY_AFTER_SECONDS, "again": again})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def close_broken_connections() -> None:
    """Close every database connection the failure left unusable, so the next request or task
    opens a fresh one. Django does it too when a request ends, but a task has no request, and a
    connection still usable (a lock timeout, not a lost server) is left to its transaction."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and connection.errors_occurred and not connection.is_usable():
            connection.close()


def remember_failure(sender, request=None, **kwargs) -> None:
    """`got_request_exception` receiver: Django sends it from inside its except block, with the
    exception still in hand; FailureMiddleware reads it when it sees the 500 that follows."""
    if request is not None:
        setattr(request, FAILURE_ATTRIBUTE, sys.exc_info()[1])


def log_transient(error: BaseException, *, where: str) -> None:
    logger.warning("%s failed for a cause outside it, to be tried again: %s", where, describe(error))
