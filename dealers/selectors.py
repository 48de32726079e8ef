"""Reads of the dealers' room (DLR-1, DLR-2): the open tables the rotation walks, the dealers'
states for the planner, and the board (who deals where, who is on a break, what comes next)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from cardroom.venues import venue_id_current
from cashgame.models import CashTable, TableStatus
from dealers.models import Assignment, AssignmentKind, Dealer, Push, PushStatus, Rotation, Shift
from poker.rotation import DealerState, Rules, dealt_in_stretch
from tournaments.models import CLOCK_STARTED
from tournaments.models import Table as TournamentTable
from tournaments.models import TableStatus as TournamentTableStatus

REST = timedelta(minutes=15)
MAX_DEALT = timedelta(minutes=90)


@dataclass(frozen=True)
class RoomTable:
    key: str  # "c<pk>" a cash table, "t<pk>" a tournament table
    label: str
    cash_table_id: int | None = None
    tournament_table_id: int | None = None


def cash_key(pk: int) -> str:
    return f"c{pk}"


def tournament_key(pk: int) -> str:
    return f"t{pk}"


def place_key(row) -> str | None:
    """The table key of an assignment or a push (None: a break or the free pool)."""
    if row.cash_table_id:
        return cash_key(row.cash_table_id)
    if row.tournament_table_id:
        return tournament_key(row.tournament_table_id)
    return None


def rules_for(push_minutes: int) -> Rules:
    """The rotation's rules: the venue's push interval, the 15-minute rest after at most 90
    minutes dealt (all divided by settings.DEALERS_TIME_SCALE, 1 in a room)."""
    scale = settings.DEALERS_TIME_SCALE
    return Rules(push=timedelta(minutes=push_minutes) / scale, rest=REST / scale, max_dealt=MAX_DEALT / scale)


def open_tables() -> list[RoomTable]:
    """The tables open now, in the order the rotation walks them: the cash tables by number,
    then each running tournament's tables by number. Two queries."""
    tables = [
        RoomTable(cash_key(pk), _("Table %(number)s") % {"number": number}, cash_table_id=pk)
        for pk, number in CashTable.objects.filter(status=TableStatus.OPEN)
        .order_by("number")
        .values_list("pk", "number")
    ]
    rows = (
        TournamentTable.objects.filter(
            status=TournamentTableStatus.OPEN, tournament__status__in=CLOCK_STARTED
        )
        .order_by("tournament__start_at", "tournament_id", "number")
        .values_list("pk", "number", "tournament__name")
    )
    tables += [
        RoomTable(
            tournament_key(pk),
            _("%(tournament)s, table %(number)s") % {"tournament": name, "number": number},
            tournament_table_id=pk,
        )
        for pk, number, name in rows
    ]
    return tables


def dealer_states(*, now: datetime) -> list[DealerState]:
    """The dealers on shift as the planner sees them: where each is since when, and what he has
    dealt since his last rest of at least 15 minutes. Two queries."""
    rest = REST / settings.DEALERS_TIME_SCALE
    shifts = {s.pk: s for s in Shift.objects.filter(clocked_out_at__isnull=True)}
    by_shift: dict[int, list[Assignment]] = {pk: [] for pk in shifts}
    for row in Assignment.objects.filter(shift_id__in=shifts).order_by("since", "pk"):
        by_shift[row.shift_id].append(row)
    states = []
    for pk, shift in shifts.items():
        rows = by_shift[pk]
        downs = [(r.since, r.until or now) for r in rows if r.kind == AssignmentKind.TABLE]
        current = next((r for r in rows if r.kind == AssignmentKind.TABLE and r.until is None), None)
        if current is not None:
            states.append(
                DealerState(
                    shift.dealer_id,
                    place_key(current),
                    current.since,
                    dealt_in_stretch(downs[:-1], rest=rest, at=current.since)
                    if len(downs) > 1
                    else timedelta(0),
                )
            )
            continue
        last_break = next((r for r in reversed(rows) if r.kind == AssignmentKind.BREAK), None)
        rest_since = max([shift.clocked_in_at, *(end for _start, end in downs)])
        if last_break is not None and last_break.since >= rest_since:
            states.append(
                DealerState(
                    shift.dealer_id,
                    None,
                    last_break.since,
                    dealt_in_stretch(downs, rest=rest),
                    last_break.until if last_break.until > now else None,
                )
            )
        else:
            states.append(DealerState(shift.dealer_id, None, rest_since, dealt_in_stretch(downs, rest=rest)))
    return sorted(states, key=lambda s: s.dealer)


def room_fingerprint(*, tables: list[RoomTable], states: list[DealerState], push_minutes: int) -> str:
    """What a plan depends on beyond time: the open tables in order, the dealers on shift and
    the push interval. The reconciler replans when it changes."""
    text = "|".join(
        [",".join(t.key for t in tables), ",".join(str(s.dealer) for s in states), str(push_minutes)]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def dealer_get(*, pk: int) -> Dealer | None:
    return Dealer.objects.filter(pk=pk).first()


def on_shift(dealer: Dealer) -> Shift | None:
    return Shift.objects.filter(dealer=dealer, clocked_out_at__isnull=True).first()


def rotation_get() -> Rotation:
    # One row per venue (VEN-1): the active venue's, else the default venue's.
    rotation, _created = Rotation.all_venues.get_or_create(venue_id=venue_id_current())
    return rotation


def pending_pushes():
    return Push.objects.filter(status=PushStatus.PENDING)


def table_label(key: str | None) -> int | str | None:
    """A table key as the audit trail keeps it, in no language: a cash table's number, or a
    tournament's name and its table's number ("Sunday Deep Stack · 2")."""
    if key is None:
        return None
    if key.startswith("c"):
        number = CashTable.objects.filter(pk=int(key[1:])).values_list("number", flat=True).first()
        return number if number is not None else key
    row = TournamentTable.objects.filter(pk=int(key[1:])).values_list("number", "tournament__name").first()
    return f"{row[1]} · {row[0]}" if row else key
