import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cashier.services import shift_open
from tests.factories import PlayerFactory

BRATISLAVA = ZoneInfo("Europe/Bratislava")
_keys = itertools.count(1)


def key() -> str:
    return f"test-key-{next(_keys):06d}"


def at(hour: int, minute: int = 0, day: int = 10) -> datetime:
    """A moment in the venue's zone on 2026-11-<day>."""
    return datetime(2026, 11, day, hour, minute, tzinfo=BRATISLAVA)


@pytest.fixture
def shift(cashier):
    return shift_open(actor=cashier, opening_float_cents=100_000, now=at(10))


@pytest.fixture
def player(db):
    return PlayerFactory()
