"""Reads for seating (TRN-9): the room as it stands, and what a bust-out will do to it.

`seating_state` reads the open tables, who sits where, the buttons, the pre-drawn break order and
the move slips still waiting (the seat each of those players still sits in). `bust_plan` works
out, without writing anything, which tables close or break and which moves follow when players
leave: the seating service carries out that very plan, and the seat panel shows its count before
the floor taps "Bust". Nothing here writes.
"""

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from poker.seating import (
    Layout,
    Move,
    apply_moves,
    balance_tables,
    break_tables,
    net_moves,
    next_tables_to_break,
)
from tournaments.models import EntryStatus, MoveSlip, TableStatus, Tournament


@dataclass
class SeatingState:
    """The open tables of a tournament, by number, with the entry ids in their seats."""

    size: int
    layout: Layout
    buttons: dict[int, int]
    break_order: list[int]
    # Entry id -> (table, seat) the player still sits in while their move slip waits.
    origins: dict[int, tuple[int, int]]


@dataclass
class BustPlan:
    """What happens to the seating when players leave (TRN-9)."""

    closed: list[int] = field(default_factory=list)  # tables left empty, closed as they stand
    breaking: list[int] = field(default_factory=list)
    break_moves: list[Move] = field(default_factory=list)
    balance_moves: list[Move] = field(default_factory=list)
    # The moves the floor will carry out (one per player), and the waiting moves called off.
    slips: list[Move] = field(default_factory=list)
    called_off: int = 0


def waiting_slips(tournament: Tournament):
    """The move slips the floor has not confirmed and no later move replaced."""
    return MoveSlip.objects.filter(tournament=tournament, confirmed_at__isnull=True, replaced_at__isnull=True)


def seating_state(*, tournament: Tournament) -> SeatingState:
    """The seating as it stands, in three queries."""
    tables = list(tournament.tables.filter(status=TableStatus.OPEN).order_by("break_rank", "number"))
    layout: Layout = {table.number: {} for table in tables}
    seated = tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False).values_list(
        "pk", "table__number", "seat"
    )
    for pk, number, seat in seated:
        layout.setdefault(number, {})[seat] = pk
    origins = {
        entry_id: (table, seat)
        for entry_id, table, seat in waiting_slips(tournament).values_list(
            "entry_id", "from_table", "from_seat"
        )
    }
    return SeatingState(
        size=tournament.table_size,
        layout=layout,
        buttons={table.number: table.button_seat for table in tables if table.button_seat is not None},
        break_order=[table.number for table in tables],
        origins=origins,
    )


def bust_plan(state: SeatingState, *, out: Iterable[int] = (), rng: random.Random) -> BustPlan:
    """The plan once the entries `out` have left (TRN-9): a table left empty closes as it stands;
    every table the others can absorb breaks, in the pre-drawn order, all in one pass (a player
    whose slip to it still waits goes back to the seat never left); then balancing."""
    gone = set(out)
    layout = {
        number: {seat: pk for seat, pk in seats.items() if pk not in gone}
        for number, seats in state.layout.items()
    }
    plan = BustPlan()
    empty = [number for number, seats in layout.items() if not seats]
    if empty and len(empty) < len(layout):
        plan.closed = empty
        layout = {number: seats for number, seats in layout.items() if seats}
    order = [number for number in state.break_order if number in layout]
    plan.breaking = next_tables_to_break(layout, seats_per_table=state.size, break_order=order)
    origins = {pk: seat for pk, seat in state.origins.items() if pk not in gone}
    if plan.breaking:
        plan.break_moves = break_tables(
            layout,
            breaking=plan.breaking,
            seats_per_table=state.size,
            rng=rng,
            buttons=state.buttons,
            origins=origins,
        )
        layout = apply_moves(layout, plan.break_moves)
        layout = {number: seats for number, seats in layout.items() if number not in plan.breaking}
    plan.balance_moves = balance_tables(layout, seats_per_table=state.size, buttons=state.buttons)
    moves = [*plan.break_moves, *plan.balance_moves]
    plan.slips = net_moves(moves, origins)
    plan.called_off = len(
        {m.player_id for m in moves if m.player_id in origins} - {m.player_id for m in plan.slips}
    )
    return plan


def bust_preview(*, tournament: Tournament, entry_ids: Iterable[int]) -> BustPlan:
    """The plan a bust-out of `entry_ids` would carry out, for the floor to see before tapping
    "Bust". Who draws which open seat is decided at the bust itself; how many players move is
    known now (the draw decides only where they go)."""
    return bust_plan(seating_state(tournament=tournament), out=entry_ids, rng=random.Random(0))
