"""What the loyalty services share: the refusal, the player's lock, and points taken from the
oldest lots with exactly the worth they carry (LOY-1)."""

from dataclasses import dataclass

from cardroom.errors import DomainError
from loyalty.models import Lot, Member
from loyalty.selectors import RULE


def refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def member_lock(player_id: int) -> Member:
    """The player's loyalty row under a lock, created on first use (race-safe): every change of
    his points holds it, so balances read under it are exact and two desks never spend the same
    points. Callers take it before any other loyalty row."""
    Member.objects.bulk_create([Member(player_id=player_id)], ignore_conflicts=True)
    return Member.objects.select_for_update(of=("self",)).get(player_id=player_id)


@dataclass
class Taken:
    points: int
    value_cents: int


def lots_take(*, player_id: int, points: int) -> Taken:
    """Take `points` from the player's lots in the active venue, oldest first, with the worth
    each still carries (a whole lot's worth left, or its share rounded down). The caller holds
    the member lock and has checked the balance."""
    left = points
    worth = 0
    for lot in Lot.objects.filter(player_id=player_id, points_left__gt=0).order_by("earned_at", "pk"):
        if left == 0:
            break
        take = min(left, lot.points_left)
        share = (
            lot.value_left_cents
            if take == lot.points_left
            else lot.value_left_cents * take // lot.points_left
        )
        lot.points_left -= take
        lot.value_left_cents -= share
        lot.save(update_fields=["points_left", "value_left_cents"])
        left -= take
        worth += share
    if left:
        raise RuntimeError("lots_take: the caller did not check the balance under the member lock")
    return Taken(points=points, value_cents=worth)
