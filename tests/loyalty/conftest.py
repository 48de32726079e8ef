"""Loyalty fixtures: a game at 1/2 EUR with its table, sessions written with real times, and
played tournament entries (no money: the loyalty postings are the point)."""

from datetime import UTC, datetime, timedelta

import pytest

from cashgame.models import PlayerSession
from loyalty.models import Lot
from loyalty.services import loyalty_settings_update
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry

# A winter evening in Bratislava (UTC+1); the venue's gaming day starts at its default hour.
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def session_played(player, table, start: datetime, minutes: float) -> PlayerSession:
    return PlayerSession.objects.create(
        table=table,
        seat=PlayerSession.objects.filter(table=table).count() + 1,
        player=player,
        state="ended",
        started_at=start,
        ended_at=start + timedelta(minutes=minutes),
    )


def entry_played(player, tournament, *, busted_at: datetime, number: int = 1) -> Entry:
    return Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number,
        kind="buy_in",
        status="busted",
        starting_stack_chips=tournament.starting_stack_chips,
        registered_at=busted_at - timedelta(hours=2),
        busted_at=busted_at,
    )


def lots_of(player) -> list[tuple[int, int, int, int]]:
    return list(
        Lot.objects.filter(player=player)
        .order_by("pk")
        .values_list("points", "points_left", "value_cents", "value_left_cents")
    )


@pytest.fixture
def game(db):
    return make_game()


@pytest.fixture
def table(game):
    return make_table(game, 1)


@pytest.fixture
def player(db):
    return PlayerFactory()


@pytest.fixture
def terms(manager):
    """10 points an hour by default, 5 per entry plus 2 per 100 EUR of buy-in, 1 point = 0.01 EUR."""
    return loyalty_settings_update(
        actor=manager,
        default_points_per_hour=10,
        entry_points=5,
        entry_points_per_100_eur=2,
        value_cents=1,
        value_points=1,
        now=NOW,
    )


@pytest.fixture
def tournament(db):
    # 90 + 10 EUR: a buy-in of 100.00 EUR, worth a ticket of 10,000 points at 0.01 EUR each.
    return TournamentFactory(prize_cents=9_000, fee_cents=1_000, levels=[(25, 50, 600)])
