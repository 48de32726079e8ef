"""Money requests racing their own retries (CAG-2, CAG-6), made certain with a held row lock
rather than left to the storm in test_money_faults.py to hit by chance."""

import threading

import pytest
from django.db import connections, transaction

from cage.services import DeskRequest, transaction_route
from cardroom.errors import DomainError
from cardroom.models import IdempotentRequest
from cashgame.models import CashTable, PlayerSession
from cashgame.services.sessions import session_buy_in
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount, drawer_expected
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory, cage_stock
from tests.faults.cashier_clients import wait_until
from tests.faults.processes import sessions_waiting_on

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FLOAT_CENTS = 1_000_000


def test_retry_that_waited_behind_its_first_request_answers_with_its_result__CAG_2_CAG_6(cashier):
    """A retry passes the door's look-up and the replay check while its first request is still
    running, then waits for the table's lock. When it gets the lock the first request has ended
    the session and paid out the table's last chips, so without a second look for the key it
    would answer "insufficient balance" (or "no session") for a cash-out that was paid. A retry
    that comes after both must be answered the same way, though the session it names is gone."""
    cage_stock(cashier)
    shift = shift_open(actor=cashier, opening_float_cents=FLOAT_CENTS)
    table = make_table(make_game(), 9)
    player = PlayerFactory(id_verified_at="2026-01-01T00:00:00Z")
    session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=player,
        seat=1,
        amount_cents=10_000,
        idempotency_key="race-seed-buy-in",
    )
    request = DeskRequest(kind="cash_out", player_id=player.pk, table_id=table.pk, amount_cents=10_000)
    answers: list = []

    def cash_out_once() -> None:
        try:
            answers.append(
                transaction_route(
                    actor=cashier, shift=shift, request=request, idempotency_key="race-cash-out"
                )
            )
        except DomainError as error:
            answers.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=cash_out_once) for _ in range(2)]
    with transaction.atomic():
        CashTable.objects.select_for_update().get(pk=table.pk)  # the dealer's tap holds it
        for thread in threads:
            thread.start()
        wait_until(
            lambda: len(sessions_waiting_on(CashTable._meta.db_table)) == 2, 20, "both requests to wait"
        )
    for thread in threads:
        thread.join(timeout=30)
    late = transaction_route(actor=cashier, shift=shift, request=request, idempotency_key="race-cash-out")

    assert len(answers) == 2
    assert all(isinstance(answer, CashierTransaction) for answer in answers), answers
    paid = CashierTransaction.objects.get(kind="cash_out")
    assert {answer.pk for answer in [*answers, late]} == {paid.pk}
    assert (paid.idempotency_key, paid.amount_cents, paid.receipt_number) == ("race-cash-out", 10_000, 2)
    assert IdempotentRequest.objects.filter(key="race-cash-out").count() == 1
    session = PlayerSession.objects.get()
    assert (session.ended_at is not None, session.cash_out_cents) == (True, 10_000)
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 0
    assert drawer_expected(shift=shift) == FLOAT_CENTS
    assert books_problems() == []
