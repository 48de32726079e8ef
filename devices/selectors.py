"""Reads for the dealer tablet and the managers' tablet page."""

import math

from django.db.models import F, QuerySet

from cashgame.models import CashTable, Hand, HandStatus, SeatState
from cashgame.selectors import table_seats
from devices.models import Device

# The seats around the oval as the dealer sees them from the tablet at the bottom: seat 1 on his
# left, clockwise up, across and down to the last seat on his right. A gap of DEALER_GAP degrees
# is left at the bottom, where the dealer sits. Radii in per cent of the drawing.
DEALER_GAP = 70
RADIUS_X, RADIUS_Y = 44, 41


def seat_position(seat: int, seats: int) -> tuple[str, str]:
    """(left, top) of a seat's centre, in per cent of the table drawing."""
    # Screen angles run clockwise (y points down); 90 degrees is straight below the centre.
    step = (360 - DEALER_GAP) / seats
    angle = math.radians(90 + DEALER_GAP / 2 + (seat - 0.5) * step)
    return f"{50 + RADIUS_X * math.cos(angle):.1f}", f"{50 + RADIUS_Y * math.sin(angle):.1f}"


def table_seats_for_tablet(*, table: CashTable, hand: Hand | None = None) -> list[dict]:
    """Seat 1..N: its session (player loaded), whether it is in play (dealt in at a new hand),
    whether the hand in progress dealt it in, and where it is drawn."""
    dealt = set(hand.dealt_seats) if hand else set()
    rows = []
    for row in table_seats(table=table):
        session = row["session"]
        left, top = seat_position(row["seat"], table.seats)
        rows.append(
            {
                **row,
                "playing": session is not None and session.state == SeatState.PLAYING,
                "dealt": row["seat"] in dealt,
                "left": left,
                "top": top,
            }
        )
    return rows


def next_button(seats: list[dict], last: Hand | None) -> int | None:
    """The seat after the last hand's button that is in play: the dealer's suggestion."""
    playing = [row["seat"] for row in seats if row["playing"]]
    if not playing:
        return None
    if last is None or last.button_seat is None:
        return playing[0]
    return ([seat for seat in playing if seat > last.button_seat] or playing)[0]


def tablet_state(*, table: CashTable) -> dict:
    """What the tablet draws: the hand in progress, the last hand ended or void, the seats."""
    recent = list(Hand.objects.filter(table=table).order_by("-pk")[:2])
    hand = recent[0] if recent and recent[0].status == HandStatus.IN_PROGRESS else None
    last = next((h for h in recent if h.status != HandStatus.IN_PROGRESS), None)
    seats = table_seats_for_tablet(table=table, hand=hand)
    return {
        "table": table,
        "hand": hand,
        "last_hand": last,
        "seats": seats,
        "playing_count": sum(1 for row in seats if row["playing"]),
        "next_button": next_button(seats, last),
    }


def device_by_token_hash(*, token_hash: str) -> Device | None:
    """The paired tablet holding this token, with its table, game and user: one query."""
    return (
        Device.objects.select_related("table__game", "user")
        .filter(token_hash=token_hash, unpaired_at__isnull=True)
        .first()
    )


def device_list() -> QuerySet[Device]:
    """Paired tablets first, then the unpaired ones (the last 50), each with its table."""
    return Device.objects.select_related("table", "paired_by", "unpaired_by").order_by(
        F("unpaired_at").desc(nulls_first=True), "table__number", "-paired_at"
    )[:50]


def device_get(*, pk: int) -> Device | None:
    return Device.objects.select_related("table", "user").filter(pk=pk).first()
