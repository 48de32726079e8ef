"""The cage's tests: one open shift, a 1/2 EUR table and a 90+10 tournament."""

import itertools

import pytest

from cashier.services import shift_open
from tests.cashgame.conftest import T0, make_game, make_table
from tests.conftest import api_client_for
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory

_keys = itertools.count(1)


def key() -> str:
    return f"cage-key-{next(_keys):06d}"


@pytest.fixture
def shift(cashier):
    cage_stock(cashier, now=T0)
    return shift_open(actor=cashier, opening_float_cents=500_000, now=T0)


@pytest.fixture
def table(db):
    """Table 1: NLHE 1/2 EUR, buy-in 100.00 to 300.00 EUR."""
    return make_table(make_game(), 1)


@pytest.fixture
def tournament(db):
    """90 EUR to the prize pool + 10 EUR fee; two players start it."""
    return TournamentFactory(levels=LEVELS, min_players=2, prize_cents=9_000, fee_cents=1_000)


@pytest.fixture
def player(db):
    return PlayerFactory()


@pytest.fixture
def api():
    def client_for(user):
        client = api_client_for(user)
        client.default_format = "json"
        return client

    return client_for
