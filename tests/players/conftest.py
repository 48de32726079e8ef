"""The players' tests of VEN-1: a second venue, and a cash room in each venue."""

import pytest

from cardroom.roles import Role
from tests.two_venues import Room, staff, venue_two


@pytest.fixture
def two(db):
    return venue_two()


@pytest.fixture
def rooms(venue, two):
    """Venue A (the first) and venue B, each with its own cashier."""
    cashier_a = staff("cashier-a", {venue: [Role.CASHIER]})
    cashier_b = staff("cashier-b", {two: [Role.CASHIER]})
    return Room(venue, cashier=cashier_a), Room(two, cashier=cashier_b)
