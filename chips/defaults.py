"""The house's default chip sets: what a new room starts with (CHP-1, CHP-2).

Migration 0002 wrote them once with its own copy of this data; `default_chip_sets_ensure` runs
after every `migrate` and after a test database is flushed (Django's post_migrate), so a room,
or a test, never lacks a set of either kind. A set the house renamed or recoloured is left alone.
"""

from cardroom.models import Venue
from chips.models import ChipSet, ChipSetKind, Denomination

# (value, colour, colour on screen): cash chips in cents, tournament chips in chips.
CASH = [
    (50, "White", "#f4f4f4"),
    (100, "Grey", "#9a9a9a"),
    (200, "Yellow", "#f2c230"),
    (500, "Red", "#c8202f"),
    (2500, "Green", "#1b7f3b"),
    (10000, "Black", "#1d1d1d"),
    (50000, "Purple", "#6b2c91"),
]
TOURNAMENT = [
    (25, "Green", "#1b7f3b"),
    (100, "Black", "#1d1d1d"),
    (500, "Purple", "#6b2c91"),
    (1000, "Yellow", "#f2c230"),
    (5000, "Orange", "#e5731c"),
    (25000, "Blue", "#2456a6"),
]
SETS = [("Cash chips", ChipSetKind.CASH, CASH), ("Tournament chips", ChipSetKind.TOURNAMENT, TOURNAMENT)]


def default_chip_sets_ensure(**kwargs) -> None:
    """Every venue has a set of each kind (VEN-1: each venue counts its own chips)."""
    for venue in Venue.objects.order_by("pk"):
        for name, kind, chips in SETS:
            if not ChipSet.all_venues.filter(venue=venue, kind=kind).exists():
                _create(venue=venue, name=name, kind=kind, chips=chips)


def _create(*, venue: Venue, name: str, kind: str, chips: list) -> None:
    chip_set = ChipSet.all_venues.create(venue=venue, name=name, kind=kind)
    Denomination.objects.bulk_create(
        Denomination(chip_set=chip_set, value=value, colour=colour, colour_hex=colour_hex)
        for value, colour, colour_hex in chips
    )
