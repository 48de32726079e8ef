"""Reads for the dealer tablet and the managers' tablet page."""

from django.db.models import F, QuerySet

from cashgame.models import CashTable, Hand, HandStatus
from cashgame.seat_layout import drawn_seats
from cashgame.selectors import table_seats
from devices.models import Device


def table_seats_for_tablet(*, table: CashTable, hand: Hand | None = None) -> list[dict]:
    """Seat 1..N with its session (player loaded), in play or not, dealt in or not, drawn where."""
    return drawn_seats(table_seats(table=table), seats=table.seats, hand=hand)


def next_button(seats: list[dict], last: Hand | None) -> int | None:
    """The seat after the last hand's button that is in play: the dealer's suggestion."""
    playing = [row["seat"] for row in seats if row["playing"]]
    if not playing:
        return None
    if last is None or last.button_seat is None:
        return playing[0]
    if last.status == HandStatus.VOIDED and last.button_seat in playing:
        return last.button_seat  # a void hand is dealt again with the button where it was
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
