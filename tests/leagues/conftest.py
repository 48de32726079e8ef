"""League tests (SER-4): tournaments played through the real services (the cashier's
registration, the floor's bust-outs), and a league over them."""

import random
from datetime import date, timedelta

import pytest

from leagues.models import PointsKind
from leagues.services import league_create, league_tournaments_set
from tests.factories import PlayerFactory
from tests.tournaments.conftest import make_tournament, register, shift  # noqa: F401 (fixtures)
from tests.tournaments.factories import T0
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_finish

S = timedelta(seconds=1)
SEASON = (date(2026, 3, 1), date(2026, 5, 31))


@pytest.fixture
def people(db):
    """Players with public nicknames, by short name."""
    names = ["Ann", "Bob", "Cyril", "Dana", "Emil", "Fero", "Gita"]
    return {name: PlayerFactory(first_name=name, last_name="Test", nickname=name) for name in names}


@pytest.fixture
def play(floor, register, make_tournament):  # noqa: F811 (fixtures)
    """play(order, day=0, finish=True) -> the tournament: `order` names the players from the
    first out to the winner; each busts alone, the last one wins (place 1)."""

    def do(order, *, day: int = 0, finish: bool = True, name: str | None = None):
        start = T0 + timedelta(days=day)
        tournament = make_tournament(
            late_registration_level=0, start_at=start, **({"name": name} if name else {})
        )
        entries = [register(tournament, player, now=start) for player in order]
        tournament_start(actor=floor, tournament=tournament, now=start, rng=random.Random(5))
        for i, entry in enumerate(entries[:-1], start=1):
            entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, None)], now=start + i * S)
        if finish:
            tournament_finish(actor=floor, tournament=tournament, now=start + len(entries) * S)
        tournament.refresh_from_db()
        return tournament

    return do


@pytest.fixture
def make_league(manager):
    def do(tournaments=(), **kwargs):
        kwargs.setdefault("name", "Spring league")
        kwargs.setdefault("season_start", SEASON[0])
        kwargs.setdefault("season_end", SEASON[1])
        kwargs.setdefault("best_n", 2)
        kwargs.setdefault("kind", PointsKind.FORMULA)
        league = league_create(actor=manager, **kwargs)
        league_tournaments_set(actor=manager, league=league, tournament_ids=[t.pk for t in tournaments])
        return league

    return do
