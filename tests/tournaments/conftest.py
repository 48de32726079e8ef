"""Helpers for registration, seating and payout tests: a cashier's open shift, players, and a
tournament filled through the real registration service."""

import itertools
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from cashier.services import shift_open
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory, seat_players
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_register, tournament_start

_keys = itertools.count(1)
# Ten 10-minute levels with a break after level 3: enough for late registration and the guarantee.
LEVELS = [
    (25, 50, 600),
    (50, 100, 600),
    (75, 150, 600),
    ("break", 300, "Colour up"),
    (100, 200, 600),
    (150, 300, 600),
    (200, 400, 600),
    (300, 600, 600),
    (400, 800, 600),
    (500, 1000, 600),
]


def key() -> str:
    return f"trn-key-{next(_keys):06d}"


@pytest.fixture
def shift(cashier):
    return shift_open(actor=cashier, opening_float_cents=100_000, now=T0)


@pytest.fixture
def make_tournament(db):
    def make(**kwargs):
        kwargs.setdefault("levels", LEVELS)
        kwargs.setdefault("min_players", 2)
        return TournamentFactory(**kwargs)

    return make


@pytest.fixture
def register(cashier, shift):
    """register(tournament, player=None, **kwargs) -> Entry, through the cashier."""

    def do(tournament, player=None, **kwargs):
        kwargs.setdefault("now", T0)
        kwargs.setdefault("rng", random.Random(7))
        return entry_register(
            actor=cashier,
            tournament=tournament,
            player=player or PlayerFactory(),
            shift=shift,
            idempotency_key=kwargs.pop("idempotency_key", None) or key(),
            **kwargs,
        )

    return do


@pytest.fixture
def running_tournament(floor, make_tournament, register):
    """Ten players bought in, the clock running for five minutes; late registration open."""
    tournament = make_tournament(late_registration_level=6)
    entries = [register(tournament) for _ in range(10)]
    started = timezone.now() - timedelta(minutes=5)
    tournament_start(actor=floor, tournament=tournament, now=started, rng=random.Random(3))
    tournament.refresh_from_db()
    return tournament, entries


def grow_history(floor, tournament, entries) -> None:
    """Sixty late entries and four bust-outs, one hand each."""
    seat_players(tournament, 60)
    for number, entry in enumerate(entries[:4]):
        busted = [(entry.pk, 1_000 + number)]
        entry_bust(actor=floor, tournament=tournament, busted=busted, now=timezone.now())
