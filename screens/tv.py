"""The state the room's TV clock shows and polls (TRN-8): the clock, the field and the money,
the late-registration countdown, the deal and, once the tournament is over, its results.

Public: counts, amounts and public names only (WTL-3). Amounts also come formatted in the
active language (the poll asks for the page's), so the screen shows the house's one money
format. Read-only; a running tournament without a deal costs the same queries as the clock and
the field alone (the rules row is read once and shared).
"""

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from cardroom.money import format_chips, format_eur
from players.selectors import public_names
from tournaments.selectors import tournament_clock_get, tournament_field_get, tournament_rules_get
from tournaments.selectors.colour_up import colour_up_announcement
from tournaments.selectors.counts import chip_leaders
from tournaments.selectors.hand_for_hand import hand_for_hand_get
from tournaments.selectors.screens import (
    deal_entries,
    prized_entries,
    tournament_closed,
    tournament_finished,
)

# The finished screen lists the paid places, and at least this many.
RESULT_ROWS = 10


def _late_registration(tournament, rules, clock: dict) -> dict:
    """Late registration (TRN-6): open until the end of level N (the number players know).

    `remaining_ms` is what is left of it at `server_now`: the current level's time left and the
    whole of every level up to level N, breaks between included. While the clock counts,
    `ends_at` is that moment, exact (the level's end plus whole levels). None for both: open
    with no end known (level N is not in the structure, or already behind the clock while the
    floor keeps registration open)."""
    level = tournament.late_registration_level
    is_open = rules.registration_closed_at is None and not tournament_closed(tournament) and level > 0
    answer = {"open": is_open, "level": level, "remaining_ms": None, "ends_at": None}
    if not is_open or clock["level"] is None:
        return answer
    levels = clock["levels"]
    last = next((row["index"] for row in levels if row["number"] == level), None)
    current = clock["level"]["index"]
    if last is None or last < current or clock["remaining_ms"] is None:
        return answer
    ahead = sum(row["duration_ms"] for row in levels[current + 1 : last + 1])
    answer["remaining_ms"] = clock["remaining_ms"] + ahead
    if clock["level_ends_at"] is not None:
        ends_at = datetime.fromisoformat(clock["level_ends_at"]) + timedelta(milliseconds=ahead)
        answer["ends_at"] = ends_at.isoformat()
    return answer


def _deal(entries: list, names: dict[int, str], accepted_at: datetime) -> dict:
    """The deal the players left agreed (TRN-10): every share, largest first. The dealt entries
    are those still in when it was accepted (some may have played on for the title)."""
    dealt = deal_entries(entries, accepted_at=accepted_at)
    total = sum(entry.prize_cents for entry in dealt)
    return {
        "accepted_at": accepted_at.isoformat(),
        "players": len(dealt),
        "total_cents": total,
        "total_text": format_eur(total),
        "shares": [
            {
                "name": names[entry.player_id],
                "place": entry.finish_place,
                "amount_cents": entry.prize_cents,
                "amount_text": format_eur(entry.prize_cents),
            }
            for entry in dealt
        ],
    }


def _results(entries: list, names: dict[int, str], paid_places: int, deal: dict | None) -> list[dict]:
    """The standings, first first: the paid places and at least RESULT_ROWS. Players who made a
    deal and stopped there share the top places ("1–3"), largest share first."""
    placed = sorted((entry for entry in entries if entry.finish_place), key=lambda entry: entry.finish_place)
    rows = []
    if deal:
        unplaced = [share for share in deal["shares"] if share["place"] is None]
        shared = f"1–{len(unplaced)}" if len(unplaced) > 1 else "1"
        rows = [
            {
                "place": None,
                "place_text": shared,
                "name": share["name"],
                "prize_cents": share["amount_cents"],
                "prize_text": share["amount_text"],
            }
            for share in unplaced
        ]
    rows += [
        {
            "place": entry.finish_place,
            "place_text": str(entry.finish_place),
            "name": names[entry.player_id],
            "prize_cents": entry.prize_cents,
            "prize_text": format_eur(entry.prize_cents),
        }
        for entry in placed
    ]
    return rows[: max(RESULT_ROWS, paid_places)]


def _next_break_index(clock: dict) -> int | None:
    if clock["level"] is None:
        return None
    for row in clock["levels"][clock["level"]["index"] + 1 :]:
        if row["kind"] == "break":  # the clock's levels are plain values
            return row["index"]
    return None


def _h4h_line(h4h: dict) -> str:
    """The TV's line under "Hand for hand": the hand and the tables still playing it (SER-3)."""
    if not h4h["waiting"]:
        return _("Hand %(round)d: every table has finished. Next hand soon.") % {"round": h4h["round"]}
    return ngettext(
        "Hand %(round)d · still playing: table %(tables)s",
        "Hand %(round)d · still playing: tables %(tables)s",
        len(h4h["waiting"]),
    ) % {"round": h4h["round"], "tables": ", ".join(map(str, h4h["waiting"]))}


def tv_state_get(*, tournament, now: datetime | None = None) -> dict:
    """Everything the TV clock shows (TRN-8), as plain JSON-ready values (see the module)."""
    now = now or timezone.now()
    rules = tournament_rules_get(tournament=tournament)
    state = tournament_clock_get(tournament=tournament, now=now)
    field = tournament_field_get(tournament=tournament, rules=rules)
    field["prize_pool_text"] = format_eur(field["prize_pool_cents"])
    field["average_stack_text"] = format_chips(field["average_stack_chips"]) or "—"
    for row in field["payouts"]:
        row["amount_text"] = format_eur(row["amount_cents"])
    if field["guarantee"]:
        field["guarantee"]["amount_text"] = format_eur(field["guarantee"]["amount_cents"])
    state["field"] = field
    state["lang"] = get_language()
    state["late_registration"] = _late_registration(tournament, rules, state)
    state["next_break_index"] = _next_break_index(state)
    state["finished"] = tournament_finished(tournament)
    # CHP-1: the next level where the smallest chips leave play (one query for the chip set).
    state["colour_up"] = (
        None if tournament_closed(tournament) else colour_up_announcement(tournament=tournament, state=state)
    )
    # The chip counts the floor entered (SER-2): the leaders and the average from real counts,
    # with the time of the latest count; one query, none once the tournament is over.
    counts = None if tournament_closed(tournament) else chip_leaders(tournament=tournament)
    state["chip_counts"] = counts
    if counts is not None:
        field["average_stack_chips"] = counts["average_chips"]
        field["average_stack_text"] = format_chips(counts["average_chips"])
        counts["average_note"] = _("from counts at %(time)s") % {"time": counts["counted_at_text"]}
    # SER-3: shown big while on; the tables are read only then.
    h4h = hand_for_hand_get(tournament=tournament, rules=rules) if rules.hand_for_hand_at else None
    state["hand_for_hand"] = (
        None
        if h4h is None or tournament_closed(tournament)
        else {"text": h4h["text"], "round": h4h["round"], "waiting": h4h["waiting"], "detail": _h4h_line(h4h)}
    )
    state["deal"] = None
    state["results"] = []
    if rules.deal_accepted_at is not None or state["finished"]:
        paid_places = len(field["payouts"])
        entries = prized_entries(tournament=tournament)
        names = public_names(entry.player for entry in entries)
        if rules.deal_accepted_at is not None:
            state["deal"] = _deal(entries, names, rules.deal_accepted_at)
            # The payouts before the deal no longer hold: the screen shows the deal instead.
            field["payouts"] = []
        if state["finished"]:
            state["results"] = _results(entries, names, paid_places, state["deal"])
    return state


# What moves with time alone while the clock counts: a screen works it out from the instants the
# state gives (the level's end, late registration's end) and the server's time, so it is left out
# of the tag and a screen holding the state is not sent it again each second.
MOVING_WITH_TIME = ("remaining_ms", "next_break_in_ms")


@dataclass(frozen=True)
class TvReading:
    """The TV state and its tag (the ETag of the polls): a digest of what a screen cannot work
    out for itself."""

    state: dict
    tag: str


def tv_reading(tournament) -> TvReading:
    state = tv_state_get(tournament=tournament)
    lasting = {key: value for key, value in state.items() if key != "server_now"}
    if state["counting"]:
        lasting = {key: value for key, value in lasting.items() if key not in MOVING_WITH_TIME}
        lasting["late_registration"] = {**state["late_registration"], "remaining_ms": None}
    text = json.dumps(lasting, sort_keys=True, cls=DjangoJSONEncoder)
    return TvReading(state=state, tag=hashlib.sha256(text.encode()).hexdigest()[:20])
