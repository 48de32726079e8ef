"""Printing's tests: a stand-in printer on 127.0.0.1, a cage printer set up on it, and a cash
table with a 2,000.00 EUR maximum so a receipt shows a four-figure amount."""

import pytest

from cashier.services import shift_open
from printing.services import printer_save
from tests.cashgame.conftest import T0, make_game, make_table
from tests.factories import PlayerFactory, cage_stock
from tests.printing.stand_in import StandInPrinter
from tests.tournaments.conftest import make_tournament  # noqa: F401 (the move slips' tournaments)


@pytest.fixture
def stand_in():
    printer = StandInPrinter().start()
    yield printer
    printer.stop()


@pytest.fixture
def cage_printer(manager, stand_in):
    return printer_save(
        actor=manager,
        name="Cage 1",
        desk="Cage window 1",
        desk_kind="cage",
        connection="network",
        host="127.0.0.1",
        port=stand_in.port,
        paper_width=48,
        code_page="CP852",
        has_cash_drawer=True,
        active=True,
    )


@pytest.fixture
def shift(cashier):
    cage_stock(cashier, now=T0)
    return shift_open(actor=cashier, opening_float_cents=500_000, now=T0)


@pytest.fixture
def table(db):
    return make_table(make_game(max_buy_in=200_000), 3)


@pytest.fixture
def player(db):
    return PlayerFactory(first_name="Šimon", last_name="Šťastný", card_number="100042")
