"""The whole room for the floor view: the cash tables and every running tournament's tables
drawn with their seats, the waiting counts per game and the tournaments' clocks.

Built from the games' own selectors (cash_table_drawings, seating_chart, tournament_clock_get),
so the floor view shows what the table page, the seating chart and the TV clock show. The
number of queries does not grow with tables or players: four for the cash tables, one for the
waiting counts, one for the closed tables, one for the tournaments, three per running
tournament (its levels, tables and seated entries) and two for the dealers (who deals at each
table, the next push to each).
"""

from datetime import datetime

from django.utils import timezone

from cashgame.selectors import EMPTY_SEAT, cash_table_drawings, closed_table_list, public_name, waiting_counts
from dealers.board import table_dealers
from dealers.selectors import cash_key, tournament_key
from tournaments.selectors import seating_chart, tournament_clock_get
from tournaments.selectors.screens import entry_status_labels, tournaments_on_the_clock

PLAYING = "playing"


def tournament_drawings(*, tournament) -> list[dict]:
    """The tournament's open tables in the shape of a cash table's drawing (tables/_table.html)."""
    drawings = []
    labels = entry_status_labels()  # once, not once a seat
    for row in seating_chart(tournament=tournament):
        table = row["table"]
        seats = [
            {
                "number": number,
                "state": EMPTY_SEAT if entry is None else PLAYING,
                "name": "" if entry is None else public_name(entry.player),
                "label": "" if entry is None else labels[entry.status],
                "short": "",
                "stack_cents": None,
                "chips": None,
                "button": number == table.button_seat,
                "dealt": False,
                "entry": entry,
            }
            for number, entry in row["seats"]
        ]
        drawings.append(
            {
                "kind": "tournament",
                "key": f"{tournament.pk}-{table.number}",
                "tournament": tournament,
                "table": table,
                "number": table.number,
                "hand": None,
                "button": table.button_seat,
                "seats": seats,
                "size": table.seats,
                "seated": row["players"],
            }
        )
    return drawings


def room_get(*, now: datetime | None = None) -> dict:
    """Everything the floor view draws, read in one go."""
    now = now or timezone.now()
    tournaments = []
    for tournament in tournaments_on_the_clock():
        tables = tournament_drawings(tournament=tournament)
        tournaments.append(
            {
                "tournament": tournament,
                "clock": tournament_clock_get(tournament=tournament, now=now),
                "tables": tables,
                "players": sum(drawing["seated"] for drawing in tables),
            }
        )
    cash = cash_table_drawings()
    dealers = table_dealers(now=now)
    for drawing in cash:
        drawing["dealer"] = dealers.get(cash_key(drawing["table"].pk))
    for row in tournaments:
        for drawing in row["tables"]:
            drawing["dealer"] = dealers.get(tournament_key(drawing["table"].pk))
    waiting = waiting_counts()
    # WTL-2: a game no table runs whose interest list has reached its threshold prompts the floor
    # to open a table (from the drawings already read: no query more).
    running = {drawing["table"].game_id for drawing in cash}
    for row in waiting:
        threshold = row["game"].interest_threshold
        row["open_table"] = bool(threshold) and row["game"].pk not in running and row["waiting"] >= threshold
    return {
        "cash": cash,
        "closed": closed_table_list(),
        "waiting": waiting,
        "tournaments": tournaments,
        "now": now,
    }
