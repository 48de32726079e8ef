"""Reads for the tournament floor's pages: the seating chart drawn as tables, one seat's panel,
the pending moves with the reason for each (TRN-9). Nothing here writes."""

import math

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from poker.seating import balance_tables
from tournaments import refusals
from tournaments.models import Entry, EntryStatus, MoveReason, MoveSlip, TableStatus, Tournament
from tournaments.selectors import pending_move_slips
from tournaments.selectors.seating import BustPlan, bust_preview, seating_state


def seat_position(seat: int, seats: int) -> tuple[float, float]:
    """Where seat `seat` of `seats` sits around an oval table, as (left %, top %) of the drawing:
    clockwise from the dealer's left, with the dealer's place at the top middle left free."""
    angle = -math.pi / 2 + seat * 2 * math.pi / (seats + 1)
    return round(50 + 42 * math.cos(angle), 1), round(50 + 41 * math.sin(angle), 1)


def player_label(entry: Entry) -> str:
    """What the floor calls a player at the table: the nickname, else the full name."""
    return entry.player.nickname or entry.player.full_name


def seating_tables(*, tournament: Tournament, moves: list[dict] = ()) -> list[dict]:
    """The open tables with every seat placed around the oval (TRN-9), in two queries:
    [{table, players, seats: [{seat, entry, label, left, top, button, arriving, leaving}]}].
    `moves` (pending_moves): a player on a waiting slip still sits in the seat the slip sends
    them from (`leaving`: that slip), and the seat it sends them to waits for them (`arriving`)."""
    leaving = {(move["slip"].from_table, move["slip"].from_seat): move for move in moves}
    arriving = {move["slip"].entry_id for move in moves}
    tables = list(tournament.tables.filter(status=TableStatus.OPEN).order_by("number"))
    seated = {
        (entry.table_id, entry.seat): entry
        for entry in tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False).select_related(
            "player"
        )
    }
    chart = []
    for table in tables:
        seats = []
        for seat in range(1, table.seats + 1):
            entry = seated.get((table.pk, seat))
            left, top = seat_position(seat, table.seats)
            seats.append(
                {
                    "seat": seat,
                    "entry": entry,
                    "label": player_label(entry) if entry else "",
                    "left": left,
                    "top": top,
                    "button": table.button_seat == seat,
                    "arriving": entry is not None and entry.pk in arriving,
                    "leaving": None if entry else leaving.get((table.number, seat)),
                }
            )
        chart.append({"table": table, "seats": seats, "players": sum(1 for s in seats if s["entry"])})
    return chart


def slip_reason(slip: MoveSlip) -> str:
    """Why a move was made, in the floor's words: "Table 3 has 9, table 5 has 7"."""
    if slip.reason == MoveReason.BALANCE and slip.from_table_players is not None:
        return _("Table %(from)d has %(a)d, table %(to)d has %(b)d") % {
            "from": slip.from_table,
            "a": slip.from_table_players,
            "to": slip.to_table,
            "b": slip.to_table_players,
        }
    if slip.reason == MoveReason.BREAK:
        return _("Table %d breaks") % slip.from_table
    if slip.reason == MoveReason.LATE:
        return _("Table %d opened for late entries") % slip.to_table
    return str(slip.get_reason_display())


def pending_moves(*, tournament: Tournament) -> list[dict]:
    """Moves waiting for the floor, each with its player and reason, in the order they were made."""
    slips = pending_move_slips(tournament=tournament)
    return [
        {
            "slip": slip,
            "label": player_label(slip.entry),
            "reason": slip_reason(slip),
            "text": slip_text(slip),
        }
        for slip in slips
    ]


def slip_text(slip: MoveSlip) -> str:
    """The slip as the floor reads it out (TRN-9): entry number and nickname, so two players with
    one nickname cannot be confused, then where from and where to."""
    return _("#%(number)d %(player)s: table %(ft)d, seat %(fs)d → table %(tt)d, seat %(ts)d") % {
        "number": slip.entry.number,
        "player": player_label(slip.entry),
        "ft": slip.from_table,
        "fs": slip.from_seat,
        "tt": slip.to_table,
        "ts": slip.to_seat,
    }


def seat_panel(*, tournament: Tournament, entry_id: int, hand: list[int]) -> dict | None:
    """What one tap on a seat opens: the player, the others out in the same hand (`hand`, entry
    ids; a second tap on a player takes him out of it), and the players at his table who could
    have knocked him out (bounties, TRN-6). None when the entry is not a seated player."""
    ids = [pk for pk in dict.fromkeys(hand) if pk != entry_id]
    if entry_id not in hand:
        ids.append(entry_id)
    entries = {
        entry.pk: entry
        for entry in tournament.entries.filter(pk__in=[*ids, entry_id], status=EntryStatus.ACTIVE)
        .select_related("player", "table")
        .order_by("pk")
    }
    tapped = entries.get(entry_id)
    if tapped is None or tapped.table_id is None:
        return None
    busting = [entries[pk] for pk in ids if pk in entries]
    if not busting:
        busting = [tapped]
    others = []
    if tournament.bounty_cents:
        tables = {entry.table_id for entry in busting}
        out = {entry.pk for entry in busting}
        others = [
            {"entry": entry, "label": player_label(entry)}
            for entry in tournament.entries.filter(status=EntryStatus.ACTIVE, table_id__in=tables)
            .exclude(pk__in=out)
            .select_related("player", "table")
            .order_by("table__number", "seat")
        ]
    refusal = refusals.bust_refusal(tournament, count=len(busting))
    return {
        "entry": tapped,
        "label": player_label(tapped),
        "busting": [{"entry": entry, "label": player_label(entry)} for entry in busting],
        "several": len(busting) > 1,
        "eliminators": others,
        "refusal": refusal,
        "after": [] if refusal else bust_outcome(tournament, [entry.pk for entry in busting]),
    }


def bust_outcome(tournament: Tournament, entry_ids: list[int]) -> list[str]:
    """What the bust-out of `entry_ids` will do to the seating, in the floor's words, before the
    floor taps "Bust" (TRN-9): the tables that break, how many players move, the waiting moves
    called off. The last player left wins instead."""
    left = tournament.entries.filter(status=EntryStatus.ACTIVE).count() - len(entry_ids)
    if left == 1:
        return [_("One player is left: the tournament has its winner.")]
    return plan_sentences(bust_preview(tournament=tournament, entry_ids=entry_ids))


def plan_sentences(plan: BustPlan) -> list[str]:
    moving = len(plan.slips)
    sentences = []
    if plan.breaking:
        tables = ", ".join(str(number) for number in plan.breaking)
        sentences.append(
            ngettext("Table %(tables)s breaks.", "Tables %(tables)s break.", len(plan.breaking))
            % {"tables": tables}
        )
    if moving:
        sentences.append(ngettext("%(n)d player moves.", "%(n)d players move.", moving) % {"n": moving})
    else:
        sentences.append(_("No one moves."))
    if plan.called_off:
        sentences.append(
            ngettext(
                "%(n)d waiting move is called off: that player stays.",
                "%(n)d waiting moves are called off: those players stay.",
                plan.called_off,
            )
            % {"n": plan.called_off}
        )
    return sentences


def table_open_moves(*, tournament: Tournament) -> int:
    """How many players move to a table the floor opens now (TRN-9): balancing onto it."""
    state = seating_state(tournament=tournament)
    layout = {**state.layout, max(state.layout, default=0) + 1: {}}
    return len(balance_tables(layout, seats_per_table=state.size, buttons=state.buttons))
