"""Balancing (TRN-9): who moves (the next big blind at the fuller table) and where to (the open
seat nearest the big blind at the shorter one)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from poker.common import PlayerId, PokerError
from poker.seating.layout import DEFAULT_BUTTON_SEAT, Layout, Move, copy_layout


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


def balance_in_place(layout: Layout, *, seats_per_table: int, buttons: Mapping[int, int]) -> list[Move]:
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
    layout = copy_layout(tables, seats_per_table)
    return balance_in_place(layout, seats_per_table=seats_per_table, buttons=buttons or {})
