"""Reads for the dealer tablet and the managers' tablet page."""

from django.db.models import F, QuerySet

from cashgame.models import CashTable
from cashgame.selectors.dealing import dealer_state
from devices.models import Device


def tablet_state(*, table: CashTable) -> dict:
    """What the tablet draws: the hand in progress, the last hand ended or void, the seats,
    whether the game is new and its button still to be drawn (cashgame.selectors.dealing)."""
    return dealer_state(table=table)


def device_by_token_hash(*, token_hash: str) -> Device | None:
    """The paired tablet holding this token, with its table, game and user: one query."""
    return (
        Device.all_venues.select_related("table__game", "user")
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
