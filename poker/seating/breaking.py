"""Breaking tables (TRN-9): when, in the pre-drawn order, and where their players go."""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Mapping, Sequence

from poker.common import PlayerId, PokerError
from poker.seating.balance import balance_in_place
from poker.seating.layout import Layout, Move, copy_layout


def tables_to_break(*, player_count: int, table_count: int, seats_per_table: int) -> int:
    """How many tables can be broken now: the rest can absorb their players (TRN-9)."""
    needed = max(1, -(-player_count // seats_per_table))
    return max(0, table_count - needed)


def table_break_order(table_numbers: Iterable[int], rng: random.Random) -> list[int]:
    """The pre-drawn order in which tables break, first to break first (TRN-9)."""
    order = sorted(table_numbers)
    rng.shuffle(order)
    return order


def next_tables_to_break(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    seats_per_table: int,
    break_order: Sequence[int],
) -> list[int]:
    """The tables to break now, taken from the pre-drawn `break_order` (TRN-9)."""
    in_play = [table for table in break_order if table in tables]
    count = tables_to_break(
        player_count=sum(len(seats) for seats in tables.values()),
        table_count=len(tables),
        seats_per_table=seats_per_table,
    )
    return in_play[:count]


def break_table(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    table: int,
    seats_per_table: int,
    rng: random.Random,
    buttons: Mapping[int, int] | None = None,
    origins: Mapping[PlayerId, tuple[int, int]] | None = None,
) -> list[Move]:
    """Move every player of `table` to the other tables, keeping them balanced (TRN-9): see
    `break_tables`, which this is for one table."""
    return break_tables(
        tables, breaking=[table], seats_per_table=seats_per_table, rng=rng, buttons=buttons, origins=origins
    )


def break_tables(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    breaking: Sequence[int],
    seats_per_table: int,
    rng: random.Random,
    buttons: Mapping[int, int] | None = None,
    origins: Mapping[PlayerId, tuple[int, int]] | None = None,
) -> list[Move]:
    """Break every table in `breaking` at once, seating their players at the other tables (TRN-9).

    A player whose move to a breaking table is still on an unconfirmed slip (`origins`) goes back
    to the seat they never left, if it is free and its table stays within the balanced size. For
    the others the open seats to fill are chosen shortest table first (ties: lowest table
    number), so sizes stay within one, and at random among a table's empty seats; they then draw
    for those seats at random. No one is sent to a table that is breaking too, so each of them
    moves once. If the tables left were out of balance, balancing moves follow.

    One pass whatever the number of tables: one validated copy of the layout, then O(log tables)
    per move. (Breaking 111 of 334 tables one at a time copied and checked the whole layout 111
    times.) With one table it gives exactly what `break_table` always gave for the same seed.
    """
    layout = copy_layout(tables, seats_per_table)
    if len(set(breaking)) != len(breaking):
        raise PokerError("bad_tables", "a table can be broken only once", rule="TRN-9")
    for table in breaking:
        if table not in layout:
            raise PokerError("unknown_table", f"table {table} is not in play", rule="TRN-9")
    # Table by table in the order given, each in seat order, so the same seed gives the same draw.
    drawers = [
        (number, seat, player) for number in breaking for seat, player in sorted(layout.pop(number).items())
    ]
    free = sum(seats_per_table - len(seats) for seats in layout.values())
    if len(drawers) > free:
        names = ", ".join(map(str, breaking))
        raise PokerError("cannot_break", f"the other tables cannot absorb table {names}", rule="TRN-9")

    moves, drawers = _return_unmoved(layout, drawers, origins or {}, seats_per_table=seats_per_table)

    # Full tables take no one; a table leaves the heap when it fills.
    counts = [(len(seats), number) for number, seats in layout.items() if len(seats) < seats_per_table]
    heapq.heapify(counts)
    slots: list[tuple[int, int]] = []
    for _ in drawers:
        count, number = heapq.heappop(counts)
        seats = layout[number]
        seat = rng.choice([s for s in range(1, seats_per_table + 1) if s not in seats])
        seats[seat] = None  # held for a drawer until the draw below
        slots.append((number, seat))
        if count + 1 < seats_per_table:
            heapq.heappush(counts, (count + 1, number))

    rng.shuffle(drawers)
    for (from_table, from_seat, player), (to_table, to_seat) in zip(drawers, slots, strict=True):
        layout[to_table][to_seat] = player
        moves.append(Move(player, from_table, from_seat, to_table, to_seat))
    moves.extend(balance_in_place(layout, seats_per_table=seats_per_table, buttons=buttons or {}))
    return moves


def _return_unmoved(
    layout: Layout,
    drawers: list[tuple[int, int, PlayerId]],
    origins: Mapping[PlayerId, tuple[int, int]],
    *,
    seats_per_table: int,
) -> tuple[list[Move], list[tuple[int, int, PlayerId]]]:
    """Send the breaking tables' players who never left their seat back to it (see break_tables).

    `layout` (the tables that stay) is changed in place. A table takes a returning player only
    while it stays within the sizes a balanced room can have: below the even share `q`, or at `q`
    while fewer than `r` tables hold more (N players over T tables: q, r = divmod(N, T)). So a
    return never causes a balancing move that drawing would not have caused.
    Returns the moves back and the players still to draw, in their order.
    """
    if not origins or not layout:
        return [], drawers
    total = sum(len(seats) for seats in layout.values()) + len(drawers)
    share, extra = divmod(total, len(layout))
    above = sum(1 for seats in layout.values() if len(seats) > share)
    moves: list[Move] = []
    still: list[tuple[int, int, PlayerId]] = []
    for from_table, from_seat, player in drawers:
        table, seat = origins.get(player, (0, 0))
        seats = layout.get(table)
        count = len(seats) if seats is not None else 0
        fits = count < share or (count == share and above < extra)
        if seats is None or seat in seats or not 1 <= seat <= seats_per_table or not fits:
            still.append((from_table, from_seat, player))
            continue
        if count == share:
            above += 1
        seats[seat] = player
        moves.append(Move(player, from_table, from_seat, table, seat))
    return moves, still
