"""What the public pages show, read through the games' own selectors (WTL-3: counts, amounts and
public names only).

The room page costs the same few queries however many games, tables, players or days of history
the room has: three for the cash games (cashgame.selectors.public), one for today's tournaments
(tournaments.selectors.public), and the venue row (cached per process).
"""

from datetime import datetime

from django.utils import timezone

from cashgame.selectors.public import games_running_list
from screens.tv import tv_state_get
from tournaments.selectors.counts import public_counts
from tournaments.selectors.public import seat_find, tournaments_today_list
from tournaments.selectors.screens import tournament_closed


def room_public_get(*, now: datetime | None = None) -> dict:
    """The room page: the cash games running now and today's tournaments."""
    now = now or timezone.now()
    return {"games": games_running_list(), "tournaments": tournaments_today_list(now=now), "now": now}


def tournament_public_get(*, tournament, find: str = "", now: datetime | None = None) -> dict:
    """A tournament's page: the TV's state (clock, structure, field, payouts, deal, results; the
    page's clock then polls the TV's own state address), every player's last chip count with
    its time (SER-2), and the answer to "find my seat", with the player's own count."""
    counts = [] if tournament_closed(tournament) else public_counts(tournament=tournament)
    seat = seat_find(tournament=tournament, query=find)
    if seat and seat.get("found") and seat.get("table"):
        count = next((row for row in counts if row["number"] == seat["number"]), None)
        if count is not None:
            seat["count"] = count
    return {
        "tournament": tournament,
        "state": tv_state_get(tournament=tournament, now=now),
        "seat": seat,
        "counts": counts,
    }
