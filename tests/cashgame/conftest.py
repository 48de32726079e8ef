"""Cash-game fixtures: the 1/2 and 2/5 EUR games, open tables, a cashier's shift, players."""

import itertools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cashgame.models import CashTable, Game, GameType, TableStatus
from cashgame.services.sessions import session_buy_in, session_state_change
from cashier.services import shift_open
from tests.conftest import api_client_for
from tests.factories import PlayerFactory, cage_stock

BRATISLAVA = ZoneInfo("Europe/Bratislava")
T0 = datetime(2026, 11, 10, 18, 0, tzinfo=BRATISLAVA)
_keys = itertools.count(1)


def key() -> str:
    return f"cg-key-{next(_keys):06d}"


def at(minutes: float) -> datetime:
    """T0 plus some minutes."""
    return T0 + timedelta(minutes=minutes)


def make_game(name="NLHE 1/2", small=100, big=200, min_buy_in=10_000, max_buy_in=30_000, **extra) -> Game:
    return Game.objects.create(
        name=name,
        game_type=GameType.NLHE,
        small_blind_cents=small,
        big_blind_cents=big,
        min_buy_in_cents=min_buy_in,
        max_buy_in_cents=max_buy_in,
        created_at=T0,
        updated_at=T0,
        **extra,
    )


def make_table(game: Game, number: int = 1, seats: int = 9) -> CashTable:
    return CashTable.objects.create(
        number=number, game=game, seats=seats, status=TableStatus.OPEN, opened_at=T0
    )


@pytest.fixture
def api():
    """api(user) -> an APIClient sending JSON (the cash-game API takes JSON bodies only)."""

    def client_for(user):
        client = api_client_for(user)
        client.default_format = "json"
        return client

    return client_for


@pytest.fixture
def game12(db):
    return make_game()


@pytest.fixture
def game25(db):
    return make_game(name="NLHE 2/5", small=200, big=500, min_buy_in=20_000, max_buy_in=100_000)


@pytest.fixture
def table12(game12):
    return make_table(game12, 1)


@pytest.fixture
def table25(game25):
    return make_table(game25, 2)


@pytest.fixture
def shift(cashier):
    cage_stock(cashier, now=T0 - timedelta(hours=1))
    return shift_open(actor=cashier, opening_float_cents=500_000, now=T0 - timedelta(hours=1))


@pytest.fixture
def player(db):
    return PlayerFactory()


def seat_players(*, cashier, floor, shift, table, count: int, amount: int | None = None, minute: float = 1):
    """`count` players bought in at seats 1..count and in play (they posted)."""
    sessions = []
    for seat in range(1, count + 1):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at=T0),
            seat=seat,
            amount_cents=amount or table.game.min_buy_in_cents,
            idempotency_key=key(),
            now=at(minute),
        )
        sessions.append(session_state_change(actor=floor, session=session, action="posted", now=at(minute)))
    return sessions
