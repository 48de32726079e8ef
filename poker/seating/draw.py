"""The random seat draw and the final table draw (TRN-9)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from poker.common import PlayerId, PokerError
from poker.seating.layout import Layout, Move, copy_layout


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
    layout = copy_layout(tables, seats_per_table)
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
