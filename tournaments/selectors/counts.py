"""Reads of the chip counts taken during play (issue 27, item 3): each entry's latest count, a
table's seats with their counts for the floor's entry page, the chip leaders and the average
from counts for the TV (SER-2), every player's count for the phones, and the stacks a deal
starts from (TRN-10). Nothing here writes."""

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.formats import time_format

from cardroom.money import format_chips
from players.selectors import public_names
from tournaments.models import ChipCount, EntryStatus, Table, TableStatus, Tournament
from tournaments.selectors.floor import player_label, seat_position

# The TV shows this many chip leaders.
LEADERS = 5


def _latest(queryset: QuerySet) -> QuerySet:
    """Of `queryset`, each entry's latest count: no later count of the same entry exists."""
    later = ChipCount.objects.filter(entry=OuterRef("entry"), pk__gt=OuterRef("pk"))
    return queryset.filter(~Exists(later))


def latest_counts(*, tournament: Tournament, entry_ids: list[int] | None = None) -> dict[int, ChipCount]:
    """{entry id: his latest count} of the tournament's entries (those in `entry_ids`), one query."""
    rows = ChipCount.objects.filter(tournament=tournament)
    if entry_ids is not None:
        rows = rows.filter(entry_id__in=entry_ids)
    return {row.entry_id: row for row in _latest(rows)}


def counted_time(moment) -> str:
    """A count's time as the room reads it: 21:40 in the venue's time zone."""
    return time_format(timezone.localtime(moment), "H:i")


def _live_counts(tournament: Tournament) -> list[ChipCount]:
    """The latest counts of the players still in, largest first, with their players: one query."""
    rows = _latest(ChipCount.objects.filter(tournament=tournament, entry__status=EntryStatus.ACTIVE))
    return list(rows.select_related("entry__player").order_by("-count", "entry__number"))


def chip_leaders(*, tournament: Tournament) -> dict | None:
    """What the TV shows of the counts (SER-2), or None before any count of a player still in:
    the leaders (public names, WTL-3), the average of the players' counts, how many were
    counted and the time of the latest count. One query."""
    rows = _live_counts(tournament)
    if not rows:
        return None
    names = public_names(row.entry.player for row in rows[:LEADERS])
    latest = max(row.counted_at for row in rows)
    average = sum(row.count for row in rows) // len(rows)
    return {
        "counted": len(rows),
        "counted_at": latest.isoformat(),
        "counted_at_text": counted_time(latest),
        "average_chips": average,
        "leaders": [
            {"name": names[row.entry.player_id], "chips": row.count, "chips_text": format_chips(row.count)}
            for row in rows[:LEADERS]
        ],
    }


def public_counts(*, tournament: Tournament) -> list[dict]:
    """Every player still in with his last count and its time, largest first, for the phones
    (public names only, WTL-3). One query."""
    rows = _live_counts(tournament)
    names = public_names(row.entry.player for row in rows)
    return [
        {
            "name": names[row.entry.player_id],
            "number": row.entry.number,
            "chips": row.count,
            "chips_text": format_chips(row.count),
            "counted_at": row.counted_at,
            "counted_at_text": counted_time(row.counted_at),
        }
        for row in rows
    ]


def table_counts_get(*, tournament: Tournament, table: Table) -> dict:
    """A table as the floor counts it: each seat placed around the oval with its player and his
    last count (or none). Two queries after the table."""
    seated = {
        entry.seat: entry
        for entry in tournament.entries.filter(table=table, status=EntryStatus.ACTIVE).select_related(
            "player"
        )
    }
    last = latest_counts(tournament=tournament, entry_ids=[entry.pk for entry in seated.values()])
    seats = []
    for seat in range(1, table.seats + 1):
        entry = seated.get(seat)
        left, top = seat_position(seat, table.seats)
        count = last.get(entry.pk) if entry else None
        seats.append(
            {
                "seat": seat,
                "entry": entry,
                "label": player_label(entry) if entry else "",
                "left": left,
                "top": top,
                "count": count,
                "count_text": format_chips(count.count) if count else "",
                "counted_at_text": counted_time(count.counted_at) if count else "",
            }
        )
    return {"table": table, "seats": seats, "players": len(seated)}


def tournament_counts_list(*, tournament: Tournament) -> list[ChipCount]:
    """Every player still in with his latest count, table and seat order (the API's read)."""
    rows = _latest(ChipCount.objects.filter(tournament=tournament, entry__status=EntryStatus.ACTIVE))
    return list(rows.select_related("entry__player", "table", "counted_by").order_by("table__number", "seat"))


def open_tables(*, tournament: Tournament) -> list[Table]:
    return list(tournament.tables.filter(status=TableStatus.OPEN).order_by("number"))


def deal_stacks(*, tournament: Tournament) -> dict[int, ChipCount]:
    """The latest counts of the players still in, the stacks a deal starts from (TRN-10)."""
    return {row.entry_id: row for row in _live_counts(tournament)}
