"""The whole room for the floor view: the cash tables and every running tournament's tables
drawn with their seats, the waiting counts per game and the tournaments' clocks.

Built from the games' own selectors (cash_table_drawings, seating_chart, tournament_clock_get),
so the floor view shows what the table page, the seating chart and the TV clock show. The
number of queries does not grow with tables or players: four for the cash tables, one for the
waiting counts, one for the closed tables, one for the tournaments, three per running
tournament (its levels, tables and seated entries) and two for the dealers (who deals at each
table, the next push to each).
"""

from datetime import datetime, timedelta

from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone

from cashgame.selectors import public_name, waiting_counts
from cashgame.selectors.drawings import EMPTY_SEAT, cash_table_drawings, closed_table_list
from dealers.board import table_dealers
from dealers.selectors import cash_key, tournament_key
from screens.readings import Drawing, Part
from tournaments.selectors import seating_chart, tournament_clock_get
from tournaments.selectors.hand_for_hand import hand_for_hand_get
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
        rules = getattr(tournament, "rules", None)
        tournaments.append(
            {
                "tournament": tournament,
                "clock": tournament_clock_get(tournament=tournament, now=now),
                # SER-3: read only while it is on (two queries then), from the rules row above.
                "hand_for_hand": hand_for_hand_get(tournament=tournament, rules=rules)
                if rules is not None and rules.hand_for_hand_at is not None
                else None,
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


def _break_at(clock: dict) -> str | None:
    """The instant the next break starts, while the clock counts: the level's end plus the whole
    levels before the break (exact, so the same in every drawing of the level)."""
    if not clock["level_ends_at"] or clock["level"] is None:
        return None
    ahead = 0
    for row in clock["levels"][clock["level"]["index"] + 1 :]:
        if row["kind"] == "break":
            starts = datetime.fromisoformat(clock["level_ends_at"]) + timedelta(milliseconds=ahead)
            return starts.isoformat()
        ahead += row["duration_ms"]
    return None


def _table_part(drawing: dict, context: dict) -> Part:
    key = drawing.get("key") or drawing["number"]
    return Part(f"part-{drawing['kind']}-table-{key}", get_template("tables/_table.html").render(context))


def room_drawn(*, tappable: bool, now: datetime | None = None) -> tuple[dict, list[Part]]:
    """The room (room_get) drawn for screens.readings.shared_drawing: the frame (which parts in
    which section, the tournaments' headings) and the parts, each drawn on its own: the waiting
    counts, each tournament's clock, each table, the closed tables."""
    room = room_get(now=now)
    base = {"tappable": tappable, "next": reverse("floor:room"), "push_at_time": True}
    parts = [Part("part-waiting", get_template("screens/floor/_waiting.html").render({**base, **room}))]
    for row in room["tournaments"]:
        row["break_at"] = _break_at(row["clock"])
        clock = get_template("screens/floor/_clock.html").render({**base, "row": row})
        parts.append(Part(f"part-clock-{row['tournament'].pk}", clock))
    strip = [part.id for part in parts]
    cash = [_table_part(drawing, {**base, "drawing": drawing}) for drawing in room["cash"]]
    closed = None
    if room["closed"]:
        closed = Part("part-closed", get_template("screens/floor/_closed.html").render({**base, **room}))
    parts += cash + ([closed] if closed else [])
    tournaments = []
    for row in room["tournaments"]:
        tables = [_table_part(drawing, {**base, "drawing": drawing}) for drawing in row["tables"]]
        tournaments.append((row["tournament"].pk, row["tournament"].name, [part.id for part in tables]))
        parts += tables
    frame = {
        "strip": strip,
        "cash": [part.id for part in cash],
        "closed": closed.id if closed else None,
        "tournaments": tournaments,
    }
    return frame, parts


def room_frame(drawing: Drawing, *, now: datetime) -> dict:
    """What templates/screens/floor/_room.html draws: the frame with its parts in place, the
    drawing's version for the poll and the server's time for the clocks."""
    frame = drawing.frame
    return {
        "since": drawing.tag,
        "server_now": now.isoformat(),
        "strip": [drawing.part(part_id) for part_id in frame["strip"]],
        "cash": [drawing.part(part_id) for part_id in frame["cash"]],
        "closed": drawing.part(frame["closed"]) if frame["closed"] else None,
        "tournaments": [
            {"pk": pk, "name": name, "tables": [drawing.part(part_id) for part_id in ids]}
            for pk, name, ids in frame["tournaments"]
        ],
    }
