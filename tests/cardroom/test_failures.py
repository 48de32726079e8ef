"""Failures the desk can act on (cardroom/failures.py, CAG-2): a request that fails for a cause
outside it answers the API's JSON 503 with Retry-After, saying a retry with the same request key
is safe, and wrote nothing; the API never answers an HTML error page; a task that loses its
database logs one line and leaves the work to its next run. The same paths with a real
connection terminated on PostgreSQL are in tests/faults/test_lost_connection.py."""

import logging
from unittest import mock

import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from cardroom.models import IdempotentRequest
from cashier.models import CashierTransaction, Posting
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory, cage_stock
from tournaments import tasks

pytestmark = pytest.mark.django_db

UNAVAILABLE = {
    "code": "service_unavailable",
    "detail": (
        "The room's database could not be reached, so this request may not have been carried out. "
        "Send it again in 5 seconds: a money request sent again with the same request key is never "
        "carried out twice."
    ),
    "rule": "CAG-2",
}


def lost_at(statement_start: str):
    def wrapper(execute, sql, params, many, context):
        if sql.startswith(statement_start):
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    return wrapper


def client_for(user) -> APIClient:
    """Django's test client re-raises what reached Django's handler; a real server answers."""
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def test_money_request_losing_its_database_answers_503_and_its_retry_posts_once__CAG_2(cashier):
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=500_000)
    table = make_table(make_game(), 1)
    body = {
        "kind": "cash_buy_in",
        "shift": shift.pk,
        "player": PlayerFactory().pk,
        "table": table.pk,
        "seat": 3,
        "amount_cents": 20_000,
    }
    client = client_for(cashier)
    before = (CashierTransaction.objects.count(), Posting.objects.count(), IdempotentRequest.objects.count())
    with connection.execute_wrapper(lost_at('INSERT INTO "cashier_posting"')):
        lost = client.post(
            "/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost-0001"
        )
    assert (lost.status_code, lost["Retry-After"], lost.json()) == (503, "5", UNAVAILABLE)
    after = (CashierTransaction.objects.count(), Posting.objects.count(), IdempotentRequest.objects.count())
    assert after == before
    again = client.post("/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost-0001")
    assert (again.status_code, again["Idempotent-Replayed"]) == (201, "false")
    assert CashierTransaction.objects.filter(idempotency_key="lost-0001").count() == 1
    assert books_problems() == []


def test_database_lost_before_the_view_answers_json_503_never_an_html_page__CAG_2(cashier, client):
    """The venue's zone is read by a middleware, before DRF: Django's own handler answers
    that failure (an HTML page in debug); the API's answer is still its JSON 503."""
    with mock.patch(
        "cardroom.middleware.request_venue", side_effect=OperationalError("the connection is closed")
    ):
        api = client_for(cashier).get("/api/cashier/shifts/")
        client.raise_request_exception = False
        client.force_login(cashier)
        page = client.get("/cashier/shifts/")
    assert (api.status_code, api["Content-Type"], api["Retry-After"], api.json()) == (
        503,
        "application/json",
        "5",
        UNAVAILABLE,
    )
    assert (page.status_code, page["Retry-After"]) == (503, "5")
    text = page.content.decode()
    assert "Try again in a moment" in text
    assert 'href="/cashier/shifts/"' in text  # a page read: open it again


def test_any_other_failure_outside_drf_answers_the_apis_json_500(cashier):
    with mock.patch("cardroom.middleware.request_venue", side_effect=RuntimeError("a bug")):
        response = client_for(cashier).get("/api/cashier/shifts/")
    assert (response.status_code, response["Content-Type"]) == (500, "application/json")
    assert response.json() == {
        "code": "server_error",
        "detail": (
            "The server failed to carry out this request. Send it again: a money request sent again "
            "with the same request key is never carried out twice."
        ),
        "rule": "",
    }


def test_a_request_django_cannot_read_gets_the_apis_error_shape(cashier):
    too_many_fields = "&".join(f"f{n}=1" for n in range(1_100))
    response = client_for(cashier).post(
        "/api/players/", too_many_fields, content_type="application/x-www-form-urlencoded"
    )
    assert (response.status_code, response["Content-Type"]) == (400, "application/json")
    assert response.json() == {
        "code": "bad_request",
        "detail": "The request could not be read: check its format and its size.",
        "rule": "",
    }


def test_task_losing_its_database_logs_one_line_without_a_traceback__TRN_8(caplog):
    lost = OperationalError("terminating connection due to administrator command\nSSL SYSCALL error")
    with (
        mock.patch("tournaments.services.clock.clock_reconcile", side_effect=lost),
        caplog.at_level(logging.INFO),
    ):
        result = tasks.clock_reconcile.apply()
    assert (result.state, result.result) == ("SUCCESS", None)
    assert [r for r in caplog.records if r.exc_info] == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "task tournaments.clock_reconcile failed for a cause outside it, to be tried again: "
        "django.db.utils.OperationalError: terminating connection due to administrator command"
    ]
    assert tasks.clock_reconcile.apply().result == {"overdue": 0, "risen": 0, "scheduled": 0}


def test_task_failing_on_a_bug_still_fails_loudly():
    with mock.patch("tournaments.services.clock.clock_reconcile", side_effect=RuntimeError("a bug")):
        result = tasks.clock_reconcile.apply()
    assert result.state == "FAILURE"


def test_debugs_own_pages_never_reach_an_api_client(cashier, settings):
    """With debug on (a developer's server), Django answers an unknown address with its own
    HTML page; an API client still gets its JSON."""
    settings.DEBUG = True
    response = client_for(cashier).get("/api/no-such-thing/")
    assert (response.status_code, response.json()) == (
        404,
        {"code": "not_found", "detail": "No such address.", "rule": ""},
    )
