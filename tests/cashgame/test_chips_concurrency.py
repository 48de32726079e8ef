"""Six desks sell chips at six tables at once on PostgreSQL while the cage holds chips for two of
the buy-ins (CHP-2): the cage's row is locked while its chips are counted and handed out, so two
sales go through, four are refused, and the cage never gives out a chip it does not hold."""

import threading

import pytest
from django.db import connections
from django.db.models import Sum

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashgame.models import PlayerSession
from cashgame.services.sessions import session_buy_in
from cashier.models import CashierTransaction
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipEntry
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
DESKS = 6


def test_the_cage_never_sells_chips_it_does_not_hold_to_desks_at_once__CHP_2():
    cashiers = [make_staff(f"chipdesk{i}", Role.CASHIER) for i in range(DESKS)]
    cage_stock(cashiers[0], chips={2500: 8})  # 200.00 EUR: two buy-ins of 100.00 EUR
    shifts = [shift_open(actor=cashier, opening_float_cents=100_000) for cashier in cashiers]
    game = make_game()
    tables = [make_table(game, number) for number in range(1, DESKS + 1)]
    players = [PlayerFactory(id_verified_at="2026-01-01T00:00:00Z") for _ in range(DESKS)]
    start = threading.Barrier(DESKS)
    refused: list[str] = []
    errors: list[Exception] = []

    def desk(i: int) -> None:
        try:
            start.wait()
            session_buy_in(
                actor=cashiers[i],
                shift=shifts[i],
                table=tables[i],
                player=players[i],
                seat=1,
                amount_cents=10_000,
                idempotency_key=f"chip-race-{i:04d}",
            )
        except DomainError as error:
            refused.append(error.code)
        except Exception as error:  # pragma: no cover - the test fails with it
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=desk, args=(i,)) for i in range(DESKS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(refused) == ["cage_short_of_chips"] * (DESKS - 2)
    assert CashierTransaction.objects.count() == PlayerSession.objects.count() == 2
    cage = ChipEntry.objects.filter(account__kind=ChipAccountKind.CAGE).aggregate(n=Sum("quantity"))["n"]
    hands = ChipEntry.objects.filter(account__kind=ChipAccountKind.HANDS).aggregate(n=Sum("quantity"))["n"]
    assert (cage, hands) == (0, 8)
    assert books_problems() == []
