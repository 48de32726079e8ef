"""Dealer-tablet fixtures: the cash-game tables and players, and a paired tablet's client."""

import pytest
from django.test import Client

from devices.services import pairing_code_create
from tests.cashgame.conftest import game12, game25, seat_players, shift, table12, table25  # noqa: F401


def pair(client: Client, *, manager, table) -> Client:
    """Pair `client` as `table`'s tablet through the pairing page, as a tablet does."""
    _pairing, code = pairing_code_create(actor=manager, table=table)
    response = client.post("/tablet/pair/", {"code": code})
    assert response.status_code == 302 and response["Location"] == "/tablet/", response.content
    return client


@pytest.fixture
def players(cashier, floor, shift, table12):  # noqa: F811
    """Four players in play at seats 1-4 of table 1 (NLHE 1/2), 300.00 EUR each."""
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


@pytest.fixture
def tablet(manager, table12, players):  # noqa: F811
    return pair(Client(), manager=manager, table=table12)


@pytest.fixture(autouse=True)
def _no_pairing_failures_left():
    """The wrong-code counter lives in the cache; each test starts with none."""
    from django.core.cache import cache

    cache.clear()
