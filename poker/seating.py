"""Tournament seat draw, table balancing and breaking, move slips (TRN-9).

A layout is `{table_no: {seat_no: player_id}}`; seats are numbered 1..`seats_per_table`
clockwise. Functions never change their input: they return `Move` slips for the floor, and
`apply_moves` gives the layout after them. Randomness comes from the `random.Random` the caller
passes, so a draw can be replayed from its seed (and tests pin it).

Balancing (TRN-9), as implemented here:
- While the fullest table has two or more players more than the shortest, one player moves from
  the fullest to the shortest (ties: lowest table number), one slip at a time.
- The player who moves is the one who would be big blind in the next hand at the fuller table: the
  button moves one occupied seat clockwise, small blind next, big blind next (heads-up the button
  is the small blind, so the big blind is the other player).
- He takes the empty seat at the shorter table that makes him big blind soonest: ideally the big
  blind of the next hand there, otherwise as few hands from it as the open seats allow; between
  equally good seats, the one nearest (counter-clockwise) to the big blind. So he neither skips
  a big blind nor pays one twice.
- `buttons` gives each table's button seat (where the button is now, before it moves for the next
  hand); a table without one is taken to have the button in seat 1.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from poker.common import PlayerId, PokerError

Layout = dict[int, dict[int, PlayerId]]
DEFAULT_BUTTON_SEAT = 1


@dataclass(frozen=True)
class Move:
    """One move slip for the floor (TRN-9)."""

    player_id: PlayerId
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int

    def __str__(self) -> str:
        return f"Table {self.from_table} seat {self.from_seat} -> Table {self.to_table} seat {self.to_seat}"


def _copy_layout(tables: Mapping[int, Mapping[int, PlayerId]], seats_per_table: int) -> Layout:
    """A private, validated copy: seats in range and no player seated twice."""
    if seats_per_table < 2:
        raise PokerError("bad_table_size", "a table has at least two seats", rule="TRN-9")
    layout: Layout = {}
    seen: set[PlayerId] = set()
    for table, seats in tables.items():
        for seat, player in seats.items():
            if not 1 <= seat <= seats_per_table:
                raise PokerError("bad_seat", f"table {table} has no seat {seat}", rule="TRN-9")
            if player in seen:
                raise PokerError("seated_twice", f"player {player!r} is seated twice", rule="TRN-9")
            seen.add(player)
        layout[table] = dict(seats)
    return layout


def apply_moves(tables: Mapping[int, Mapping[int, PlayerId]], moves: Iterable[Move]) -> Layout:
    """The layout after the moves: all movers stand up first, then sit down (so seat swaps work).

    Tables keep their key even when they end up empty (a broken table), and tables that appear
    only as destinations are added.
    """
    layout = {table: dict(seats) for table, seats in tables.items()}
    moves = list(moves)
    for move in moves:
        if layout.get(move.from_table, {}).get(move.from_seat) != move.player_id:
            raise PokerError("stale_move", f"{move.player_id!r} is not at {move}", rule="TRN-9")
        del layout[move.from_table][move.from_seat]
    for move in moves:
        seats = layout.setdefault(move.to_table, {})
        if move.to_seat in seats:
            raise PokerError("seat_taken", f"{move} goes to an occupied seat", rule="TRN-9")
        seats[move.to_seat] = move.player_id
    return layout


def draw_seats(
    player_ids: Sequence[PlayerId],
    *,
    seats_per_table: int,
    rng: random.Random,
    tables: int | Sequence[int] | None = None,
) -> Layout:
    """Random seat draw that spreads the field evenly: table sizes differ by at most one (TRN-9).

    `tables` is a count (tables numbered from 1) or the table numbers to use; by default as few
    tables as hold everyone. Which tables get the extra player, which seats stay empty and who
    sits where are all drawn at random.
    """
    if len(set(player_ids)) != len(player_ids):
        raise PokerError("seated_twice", "a player can draw only one seat", rule="TRN-9")
    if seats_per_table < 2:
        raise PokerError("bad_table_size", "a table has at least two seats", rule="TRN-9")
    if tables is None:
        tables = max(1, -(-len(player_ids) // seats_per_table))
    numbers = list(range(1, tables + 1)) if isinstance(tables, int) else list(tables)
    if not numbers or len(set(numbers)) != len(numbers):
        raise PokerError("bad_tables", "draw needs distinct table numbers", rule="TRN-9")
    if len(player_ids) > len(numbers) * seats_per_table:
        raise PokerError("not_enough_seats", "more players than seats", rule="TRN-9")

    base, extra = divmod(len(player_ids), len(numbers))
    fuller = set(rng.sample(numbers, extra))
    slots: list[tuple[int, int]] = []
    for table in numbers:
        count = base + (1 if table in fuller else 0)
        slots.extend((table, seat) for seat in rng.sample(range(1, seats_per_table + 1), count))
    players = list(player_ids)
    rng.shuffle(players)
    layout: Layout = {table: {} for table in numbers}
    for (table, seat), player in zip(slots, players, strict=True):
        layout[table][seat] = player
    return layout


def _clockwise_after(seat: int, start: int, seats_per_table: int) -> int:
    """Distance of `seat` clockwise from the seat after `start` (0 for the next seat)."""
    return (seat - start - 1) % seats_per_table


def _hands_until_big_blind(position: int, players: int) -> int:
    """Hands until the player `position` places clockwise after the button posts the BB.

    Position 0 is the first player after the current button. Next hand the button moves to
    position 0; the big blind is position 2, or position 1 heads-up (the button posts the small
    blind, BET-1); each further hand moves it one more player along.
    """
    if players <= 1:
        return 1
    first_bb = 1 if players == 2 else 2
    return (position - first_bb) % players + 1


def next_big_blind_seat(seats: Iterable[int], *, button: int, seats_per_table: int) -> int:
    """Seat that posts the big blind in the next hand, the button now being at `button`."""
    order = sorted(seats, key=lambda s: _clockwise_after(s, button, seats_per_table))
    if not order:
        raise PokerError("empty_table", "an empty table has no big blind", rule="TRN-9")
    return order[min(len(order) - 1, 1 if len(order) == 2 else 2)]


def seat_closest_to_big_blind(seats: Mapping[int, PlayerId], *, button: int, seats_per_table: int) -> int:
    """Empty seat where a newcomer posts the big blind soonest (TRN-9, see module doc)."""
    occupied = sorted(seats, key=lambda s: _clockwise_after(s, button, seats_per_table))
    distances = [_clockwise_after(s, button, seats_per_table) for s in occupied]
    best: tuple[int, int] | None = None
    best_seat = 0
    for seat in range(1, seats_per_table + 1):
        if seat in seats:
            continue
        distance = _clockwise_after(seat, button, seats_per_table)
        position = sum(1 for d in distances if d < distance)
        key = (_hands_until_big_blind(position, len(occupied) + 1), -distance)
        if best is None or key < best:
            best, best_seat = key, seat
    if best is None:
        raise PokerError("table_full", "no empty seat at the shorter table", rule="TRN-9")
    return best_seat


def _balance_in_place(layout: Layout, *, seats_per_table: int, buttons: Mapping[int, int]) -> list[Move]:
    """Balance `layout` (mutated) and return the moves made, fullest to shortest (TRN-9)."""
    counts = {table: len(seats) for table, seats in layout.items()}
    fullest = [(-count, table) for table, count in counts.items()]
    shortest = [(count, table) for table, count in counts.items()]
    heapq.heapify(fullest)
    heapq.heapify(shortest)
    moves: list[Move] = []
    # Lazy heaps: entries whose count is out of date are dropped when they surface, so each move
    # costs O(log tables) and 3,000 entrants balance in milliseconds.
    while fullest and shortest:
        while -fullest[0][0] != counts[fullest[0][1]]:
            heapq.heappop(fullest)
        while shortest[0][0] != counts[shortest[0][1]]:
            heapq.heappop(shortest)
        source, target = fullest[0][1], shortest[0][1]
        if counts[source] - counts[target] <= 1:
            break
        from_seats, to_seats = layout[source], layout[target]
        from_seat = next_big_blind_seat(
            from_seats,
            button=buttons.get(source, DEFAULT_BUTTON_SEAT),
            seats_per_table=seats_per_table,
        )
        to_seat = seat_closest_to_big_blind(
            to_seats,
            button=buttons.get(target, DEFAULT_BUTTON_SEAT),
            seats_per_table=seats_per_table,
        )
        player = from_seats.pop(from_seat)
        to_seats[to_seat] = player
        moves.append(Move(player, source, from_seat, target, to_seat))
        counts[source] -= 1
        counts[target] += 1
        heapq.heappush(fullest, (-counts[source], source))
        heapq.heappush(fullest, (-counts[target], target))
        heapq.heappush(shortest, (counts[source], source))
        heapq.heappush(shortest, (counts[target], target))
    return moves


def balance_tables(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    seats_per_table: int,
    buttons: Mapping[int, int] | None = None,
) -> list[Move]:
    """Moves that leave no table with more than one player more than another (TRN-9).

    `tables` are the tables in play (an empty table passed in counts as a table to fill). See
    the module docstring for who moves and where he sits.
    """
    layout = _copy_layout(tables, seats_per_table)
    return _balance_in_place(layout, seats_per_table=seats_per_table, buttons=buttons or {})


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
) -> list[Move]:
    """Move every player of `table` to the other tables, keeping them balanced (TRN-9): see
    `break_tables`, which this is for one table."""
    return break_tables(tables, breaking=[table], seats_per_table=seats_per_table, rng=rng, buttons=buttons)


def break_tables(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    breaking: Sequence[int],
    seats_per_table: int,
    rng: random.Random,
    buttons: Mapping[int, int] | None = None,
) -> list[Move]:
    """Break every table in `breaking` at once, seating their players at the other tables (TRN-9).

    The open seats to fill are chosen shortest table first (ties: lowest table number), so sizes
    stay within one, and at random among a table's empty seats; the broken tables' players then
    draw for those seats at random. No one is sent to a table that is breaking too, so each of
    them moves once. If the tables left were out of balance, balancing moves follow.

    One pass whatever the number of tables: one validated copy of the layout, then O(log tables)
    per move. (Breaking 111 of 334 tables one at a time copied and checked the whole layout 111
    times.) With one table it gives exactly what `break_table` always gave for the same seed.
    """
    layout = _copy_layout(tables, seats_per_table)
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
    moves = []
    for (from_table, from_seat, player), (to_table, to_seat) in zip(drawers, slots, strict=True):
        layout[to_table][to_seat] = player
        moves.append(Move(player, from_table, from_seat, to_table, to_seat))
    moves.extend(_balance_in_place(layout, seats_per_table=seats_per_table, buttons=buttons or {}))
    return moves


def final_table_draw(
    tables: Mapping[int, Mapping[int, PlayerId]],
    *,
    final_table: int,
    seats_per_table: int,
    rng: random.Random,
) -> list[Move]:
    """Everyone left draws a new seat at `final_table` (TRN-9).

    Returns a slip for every player whose table or seat changes; apply them together
    (`apply_moves`), since a player may take a seat another player is leaving.
    """
    layout = _copy_layout(tables, seats_per_table)
    seated = [
        (number, seat, player)
        for number, seats in sorted(layout.items())
        for seat, player in sorted(seats.items())
    ]
    if len(seated) > seats_per_table:
        raise PokerError(
            "too_many_for_final", "more players left than seats at the final table", rule="TRN-9"
        )
    new_seats = rng.sample(range(1, seats_per_table + 1), len(seated))
    rng.shuffle(seated)
    return [
        Move(player, number, seat, final_table, new_seat)
        for (number, seat, player), new_seat in zip(seated, new_seats, strict=True)
        if (number, seat) != (final_table, new_seat)
    ]
