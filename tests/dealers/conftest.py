"""Dealers' fixtures: three open cash tables, dealers by name, the time of the night."""

from datetime import UTC, datetime, timedelta

import pytest

from dealers.models import Dealer
from tests.cashgame.conftest import make_game, make_table

# 20:00 UTC: on the half-hour grid, so pushes fall at 20:30, 21:00, ...
N0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return N0 + timedelta(minutes=minutes)


@pytest.fixture
def tables(db):
    game = make_game()
    return [make_table(game, number) for number in (1, 2, 3)]


@pytest.fixture
def dealers(db):
    return {name: Dealer.objects.create(name=name) for name in ("Eva", "Jana", "Marek", "Peter", "Zuzana")}
