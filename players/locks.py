"""Row locks of the players app (see cashier/locks.py for the order every service keeps)."""

from players.models import Player


def player_for_update(player_id: int) -> Player:
    """The player row under a lock: his money checks (exclusion, PLY-1; the day's cash total,
    PLY-2) hold it, so two desks cannot split a sum past the AML check."""
    return Player.objects.select_for_update(of=("self",), no_key=True).get(pk=player_id)
