"""Issue 4: seat draw plus full balancing for 3,000 entrants (TRN-9). Target: under 100 ms.

Run from the project root:  .venv/bin/python bench/tournament_seating.py
Pure Python (poker.seating), no database. Each round draws 3,000 entrants onto tables of 9
(334 tables), then knocks out a random third of them, unevenly (two thirds of the busts fall on
the lower-numbered half of the tables, so balancing has real work), and balances the rest
completely: every table the others can absorb breaks, taken in the pre-drawn order, all in one
pass (break_tables, which balances after the break), and balance_tables runs until no table has
two players more than another; afterwards no table is left to break (checked). It prints the
median and p99 of a round over many rounds, the moves per round, and p99 / 100 ms (the ratio
must be under 1). It then times what one bust-out costs the floor on a 3,000-entrant field
(1,000 single bust-outs, each followed by breaking and balancing).
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentile
from poker.seating import (
    apply_moves,
    balance_tables,
    break_tables,
    draw_seats,
    next_tables_to_break,
    table_break_order,
)

ENTRANTS = 3_000
SEATS = 9
ROUNDS = 60
TARGET_MS = 100.0


def one_round(seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    players = list(range(1, ENTRANTS + 1))
    bust_rng = random.Random(seed + 1)
    started = time.perf_counter()
    layout = draw_seats(players, seats_per_table=SEATS, rng=rng)
    order = table_break_order(layout, rng)
    draw_ms = (time.perf_counter() - started) * 1000
    # The busts are the input, not the work: they are chosen outside the timed parts.
    half = sorted(layout)[: len(layout) // 2]
    for _ in range(ENTRANTS // 3):
        table = bust_rng.choice(half) if bust_rng.random() < 2 / 3 else bust_rng.choice(sorted(layout))
        if layout[table]:
            del layout[table][bust_rng.choice(sorted(layout[table]))]
    moves = 0
    started = time.perf_counter()
    to_break = next_tables_to_break(layout, seats_per_table=SEATS, break_order=order)
    slips = break_tables(layout, breaking=to_break, seats_per_table=SEATS, rng=rng)
    layout = apply_moves(layout, slips)
    for table in to_break:
        del layout[table]
    moves += len(slips)
    slips = balance_tables(layout, seats_per_table=SEATS)
    layout = apply_moves(layout, slips)
    moves += len(slips)
    elapsed_ms = draw_ms + (time.perf_counter() - started) * 1000
    assert not next_tables_to_break(layout, seats_per_table=SEATS, break_order=order), "a table left to break"
    sizes = [len(seats) for seats in layout.values()]
    assert max(sizes) - min(sizes) <= 1, "balancing left a gap of two or more"
    return elapsed_ms, moves


def per_bust(seed: int, busts: int = 1_000) -> list[float]:
    """What the floor's bust-out does each time (tournaments.services.seating.rebalance): one
    player out, then break what can break and balance, on a 3,000-entrant field."""
    rng = random.Random(seed)
    layout = draw_seats(list(range(1, ENTRANTS + 1)), seats_per_table=SEATS, rng=rng)
    order = table_break_order(layout, rng)
    times = []
    for _ in range(busts):
        table = rng.choice([number for number, seats in layout.items() if seats])
        del layout[table][rng.choice(sorted(layout[table]))]
        started = time.perf_counter()
        to_break = next_tables_to_break(layout, seats_per_table=SEATS, break_order=order)
        if to_break:
            layout = apply_moves(
                layout, break_tables(layout, breaking=to_break, seats_per_table=SEATS, rng=rng)
            )
            for number in to_break:
                del layout[number]
        layout = apply_moves(layout, balance_tables(layout, seats_per_table=SEATS))
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    one_round(0)  # warm-up
    results = [one_round(seed) for seed in range(1, ROUNDS + 1)]
    times = [ms for ms, _moves in results]
    moves = [m for _ms, m in results]
    p99 = percentile(times, 0.99)
    print(f"entrants={ENTRANTS} seats_per_table={SEATS} rounds={ROUNDS}")
    print(f"moves_per_round_median={percentile(moves, 0.5)}")
    print(f"draw_plus_balance_median_ms={percentile(times, 0.5):.2f}")
    print(f"draw_plus_balance_p99_ms={p99:.2f}")
    print(f"ratio_p99_to_target={p99 / TARGET_MS:.3f}  (target < 1)")
    single = per_bust(99)
    print(f"per_bust_rebalance_median_ms={percentile(single, 0.5):.3f}")
    print(f"per_bust_rebalance_p99_ms={percentile(single, 0.99):.3f}")


if __name__ == "__main__":
    main()
