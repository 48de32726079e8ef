"""Layouts, move slips and applying them (TRN-9): the shapes the rest of poker.seating shares."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


def copy_layout(tables: Mapping[int, Mapping[int, PlayerId]], seats_per_table: int) -> Layout:
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


def net_moves(moves: Iterable[Move], origins: Mapping[PlayerId, tuple[int, int]] | None = None) -> list[Move]:
    """One slip per player for a run of moves (TRN-9): from the seat the player sits in (their
    unconfirmed slip's origin in `origins`, else where their first move starts) to the seat their
    last move ends in; a player who ends where they sit has no slip. In the order of first moves."""
    origins = origins or {}
    first: dict[PlayerId, tuple[int, int]] = {}
    last: dict[PlayerId, tuple[int, int]] = {}
    for move in moves:
        first.setdefault(move.player_id, origins.get(move.player_id, (move.from_table, move.from_seat)))
        last[move.player_id] = (move.to_table, move.to_seat)
    return [Move(player, *start, *last[player]) for player, start in first.items() if start != last[player]]
