import pytest

from tests.reports import known_day


@pytest.fixture
def room(manager, floor, cashier, cashier2):
    """The known gaming day 2026-11-10 (see known_day.py), built through the services."""
    return known_day.build(manager=manager, floor=floor, cashier=cashier, cashier2=cashier2)
