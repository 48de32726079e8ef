"""Failures the desk can act on (CAG-2), on PostgreSQL: a request whose database connection is
terminated in the middle answers a JSON 503 with Retry-After, wrote nothing, and its retry with
the same request key is carried out once; of two identical requests sent at the same moment,
the one settled by the other says so; a periodic task whose connection is terminated logs one
line without a traceback and its next run does the work."""

import logging
import threading

import pytest
from django.db import connection, connections, transaction
from django.test import Client

from cardroom.models import AuditRecord, IdempotentRequest
from cashgame.models import CashTable, PlayerSession
from cashier.models import CashierTransaction, Posting
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import api_client_for
from tests.factories import PlayerFactory, cage_stock
from tests.faults.cashier_clients import wait_until
from tests.faults.processes import sessions_waiting_on
from tests.tournaments.factories import T0, TournamentFactory
from tournaments import tasks
from tournaments.models import Tournament
from tournaments.services.clock import clock_start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

UNAVAILABLE = {
    "code": "service_unavailable",
    "detail": (
        "The room's database could not be reached, so this request may not have been carried out. "
        "Send it again in 5 seconds: a money request sent again with the same request key is never "
        "carried out twice."
    ),
    "rule": "CAG-2",
}


def terminate(pid: int) -> None:
    """End another session's backend from a connection of our own, as an operator's
    pg_terminate_backend or a database restart would, and wait until it is gone."""
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
    finally:
        killer.close()


def terminated_at(statement_start: str):
    """An execute wrapper that terminates its own connection just before the first statement
    starting with `statement_start`, which then fails as a lost connection does."""
    fired: list[str] = []

    def wrapper(execute, sql, params, many, context):
        if not fired and sql.startswith(statement_start):
            fired.append(sql)
            terminate(context["connection"].connection.info.backend_pid)
        return execute(sql, params, many, context)

    return wrapper, fired


def written() -> tuple[int, ...]:
    return (
        CashierTransaction.objects.count(),
        Posting.objects.count(),
        IdempotentRequest.objects.count(),
        AuditRecord.objects.count(),
        PlayerSession.objects.count(),
    )


@pytest.fixture
def desk(cashier):
    shift = shift_open(actor=cashier, opening_float_cents=500_000)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    table = make_table(make_game(), 1)
    player = PlayerFactory()
    body = {"kind": "cash_buy_in", "shift": shift.pk, "player": player.pk, "table": table.pk, "seat": 3}
    return {**body, "amount_cents": 20_000}, table


def test_connection_terminated_mid_request_answers_503_and_its_retry_posts_once__CAG_2(cashier, desk):
    body, _table = desk
    client = api_client_for(cashier)
    before = written()
    wrapper, fired = terminated_at('INSERT INTO "cashier_posting"')
    with connection.execute_wrapper(wrapper):
        lost = client.post(
            "/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost-0001"
        )
    assert fired, "the request never reached the posting"
    assert (lost.status_code, lost["Retry-After"], lost["Content-Type"]) == (503, "5", "application/json")
    assert lost.json() == UNAVAILABLE
    assert written() == before

    again = client.post("/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost-0001")
    assert (again.status_code, again["Idempotent-Replayed"]) == (201, "false")
    repeat = client.post("/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost-0001")
    assert (repeat.status_code, repeat["Idempotent-Replayed"], repeat.json()["id"]) == (
        200,
        "true",
        again.json()["id"],
    )
    assert CashierTransaction.objects.get().amount_cents == 20_000
    assert IdempotentRequest.objects.filter(key="lost-0001").count() == 1
    assert books_problems() == []


def test_desk_page_losing_its_connection_says_try_again_and_the_same_form_posts_once__CAG_2(cashier, desk):
    """The cashier's desk: the page says to go back and tap again; the form sent again carries
    the same page key, so it posts once."""
    body, table = desk
    client = Client(raise_request_exception=False)
    client.force_login(cashier)
    page_key = client.get("/cashier/").context["form"]["idempotency_key"].value()
    form = {
        "idempotency_key": page_key,
        "kind": "cash_buy_in",
        "player": body["player"],
        "table": table.pk,
        "seat": 3,
        "amount": "200",
        "method": "cash",
    }
    before = written()
    wrapper, fired = terminated_at('INSERT INTO "cashier_posting"')
    with connection.execute_wrapper(wrapper):
        lost = client.post("/cashier/", form)
    assert fired
    assert (lost.status_code, lost["Retry-After"]) == (503, "5")
    assert "Go back with the browser and tap the same button again" in lost.content.decode()
    assert written() == before
    again = client.post("/cashier/", form)
    repeat = client.post("/cashier/", form)
    made = CashierTransaction.objects.get()
    assert (again.status_code, repeat.status_code) == (302, 302)
    assert again["Location"] == repeat["Location"]
    assert (made.idempotency_key, made.amount_cents) == (page_key, 20_000)
    assert books_problems() == []


def test_connection_lost_outside_the_view_answers_503_too_never_an_html_page__CAG_2(cashier):
    """The session's look-up happens before DRF's view: its failure reaches Django's own handler,
    which in debug answers an HTML page; the API still answers its JSON 503."""
    client = Client(raise_request_exception=False)
    client.force_login(cashier)
    wrapper, fired = terminated_at('SELECT "django_session"')
    with connection.execute_wrapper(wrapper):
        lost = client.get("/api/cashier/shifts/")
    assert fired
    assert (lost.status_code, lost["Retry-After"], lost.json()) == (503, "5", UNAVAILABLE)
    with connection.execute_wrapper(terminated_at('SELECT "django_session"')[0]):
        page = client.get("/cashier/shifts/")
    assert (page.status_code, page["Retry-After"]) == (503, "5")
    assert "Try again in a moment" in page.content.decode()
    assert client.get("/api/cashier/shifts/").status_code == 200


def test_two_identical_requests_at_the_same_moment_one_says_it_was_replayed__CAG_2(cashier, desk):
    """Both requests find the key unused and wait for the table's lock; the one that gets it
    second is settled by the first and must say so (both said 201 and "false")."""
    body, table = desk
    answers: list[tuple[int, str, int]] = []

    def post() -> None:
        try:
            response = api_client_for(cashier).post(
                "/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="twin-0001"
            )
            answers.append((response.status_code, response["Idempotent-Replayed"], response.json()["id"]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(2)]
    with transaction.atomic():
        CashTable.objects.select_for_update().get(pk=table.pk)  # the dealer's tap holds it
        for thread in threads:
            thread.start()
        wait_until(
            lambda: len(sessions_waiting_on(CashTable._meta.db_table)) == 2, 20, "both requests to wait"
        )
    for thread in threads:
        thread.join(timeout=30)

    made = CashierTransaction.objects.get()
    assert sorted(answers) == [(200, "true", made.pk), (201, "false", made.pk)]
    assert IdempotentRequest.objects.filter(key="twin-0001").count() == 1
    assert PlayerSession.objects.get().buy_in_cents == 20_000
    assert books_problems() == []


def test_periodic_task_losing_its_connection_recovers_on_its_next_run_without_a_traceback__TRN_8(
    floor, caplog
):
    tournament = TournamentFactory(levels=[(25, 50, 600), (50, 100, 600), (100, 200, 600)])
    clock_start(actor=floor, tournament=tournament, now=T0)  # long ago: two levels are overdue
    connection.ensure_connection()
    terminate(connection.connection.info.backend_pid)

    with caplog.at_level(logging.INFO):
        lost = tasks.clock_reconcile.apply()
    assert (lost.state, lost.result) == ("SUCCESS", None)
    assert [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()] == []
    warning = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warning) == 1
    assert warning[0].startswith(
        "task tournaments.clock_reconcile failed for a cause outside it, to be tried again: "
        "django.db.utils.OperationalError: "
    )

    caught_up = tasks.clock_reconcile.apply()
    assert caught_up.result == {"overdue": 1, "risen": 2, "scheduled": 0}
    assert Tournament.objects.get().current_level_index == 2
