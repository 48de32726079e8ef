"""Points expire after the venue's months without play (LOY-1, 12 by default): all the points a
player holds in the venue leave the liability at once, Dr loyalty points outstanding, Cr loyalty
expense (the cost booked when they were earned is taken back: breakage). Play is an ended
session or a played entry (its lot's time); a player seated right now never expires."""

from datetime import datetime

from django.db import transaction
from django.db.models import Max, Sum

from cardroom.services import audit_record
from cashgame.models import PlayerSession
from cashier.models import AccountKind
from cashier.services import account_for, ledger_post
from loyalty.models import Lot, Movement, MovementKind
from loyalty.selectors import balance_of, months_before, settings_get
from loyalty.services._common import lots_take, member_lock


def _due(*, cutoff: datetime):
    """Players with points whose last play is at or before the cutoff, and not seated now."""
    seated = PlayerSession.objects.filter(ended_at__isnull=True).values("player_id")
    return (
        Lot.objects.exclude(player_id__in=seated)
        .values("player_id")
        .annotate(last=Max("earned_at"), left=Sum("points_left"))
        .filter(last__lte=cutoff, left__gt=0)
        .order_by("player_id")
    )


@transaction.atomic
def player_points_expire(*, player_id: int, now: datetime) -> Movement | None:
    """Expire the player's points if they are due (None: not due, or nothing to expire)."""
    member_lock(player_id)
    cutoff = months_before(now, settings_get().expiry_months)
    if not _due(cutoff=cutoff).filter(player_id=player_id).exists():
        return None
    points, _worth = balance_of(player_id=player_id)
    taken = lots_take(player_id=player_id, points=points)
    description = "Loyalty points expired (no play for the venue's months)"
    posting = None
    if taken.value_cents:
        posting = ledger_post(
            lines=[
                (account_for(kind=AccountKind.LOYALTY_LIABILITY), taken.value_cents),
                (account_for(kind=AccountKind.LOYALTY_EXPENSE), -taken.value_cents),
            ],
            description=description,
            now=now,
        )
    movement = Movement.objects.create(
        player_id=player_id,
        kind=MovementKind.EXPIRY,
        at=now,
        points=-points,
        value_cents=-taken.value_cents,
        balance_after=0,
        description=description,
        posting=posting,
    )
    audit_record(
        actor=None,
        action="loyalty.expire",
        obj=movement,
        before={"points": points, "value_cents": taken.value_cents},
        after={"points": 0, "value_cents": 0},
        now=now,
    )
    return movement


def points_expire_due(*, now: datetime) -> int:
    cutoff = months_before(now, settings_get().expiry_months)
    expired = 0
    for player_id in _due(cutoff=cutoff).values_list("player_id", flat=True)[:500]:
        expired += player_points_expire(player_id=player_id, now=now) is not None
    return expired
