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

Fewest moves (TRN-9): while the floor has not confirmed a move slip, the player still sits where
the slip sends them from. `origins` gives those seats ({player: (table, seat)}). Breaking a table
sends such a player back to that seat when it is still free and that table stays within the
balanced size (so the move is called off, not made twice), and `net_moves` turns any run of moves
into one slip per player, from the seat the player sits in to the seat they end in, dropping a
player who ends where they sit.
"""

from poker.seating.balance import balance_tables, next_big_blind_seat, seat_closest_to_big_blind
from poker.seating.breaking import (
    break_table,
    break_tables,
    next_tables_to_break,
    table_break_order,
    tables_to_break,
)
from poker.seating.draw import draw_seats, final_table_draw
from poker.seating.layout import DEFAULT_BUTTON_SEAT, Layout, Move, apply_moves, net_moves

__all__ = [
    "DEFAULT_BUTTON_SEAT",
    "Layout",
    "Move",
    "apply_moves",
    "balance_tables",
    "break_table",
    "break_tables",
    "draw_seats",
    "final_table_draw",
    "net_moves",
    "next_big_blind_seat",
    "next_tables_to_break",
    "seat_closest_to_big_blind",
    "table_break_order",
    "tables_to_break",
]
