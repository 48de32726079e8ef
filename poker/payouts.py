"""Tournament payouts and finishing places (TRN-10); the deals at the final table are `poker.deals`.

Money is integer cents, percentages are basis points (10 000 bp = 100 %), stacks are integer
chips. Every function hands out its total exactly: rounding remainders are given back by a
stated rule, never lost or invented.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from poker.common import PlayerId, PokerError

BASIS_POINTS = 10_000

# Hand-tuned rows for small fields: top-heavy, each summing to 10 000 bp, never increasing.
_SMALL_ROWS: dict[int, tuple[int, ...]] = {
    1: (10_000,),
    2: (6_500, 3_500),
    3: (5_000, 3_000, 2_000),
    4: (4_500, 2_700, 1_700, 1_100),
    5: (4_000, 2_500, 1_600, 1_100, 800),
    6: (3_700, 2_300, 1_500, 1_100, 800, 600),
    7: (3_500, 2_200, 1_500, 1_100, 800, 500, 400),
    8: (3_300, 2_100, 1_400, 1_050, 800, 600, 400, 350),
    9: (3_200, 2_000, 1_400, 1_000, 800, 600, 400, 300, 300),
}

# (largest number of entries, places paid): roughly 10-15 % of the field paid, in whole tables of
# nine once past the final table. Larger fields pay 10 % of the entries.
DEFAULT_PLACES_PAID: tuple[tuple[int, int], ...] = (
    (7, 1),
    (15, 3),
    (27, 4),
    (36, 5),
    (45, 6),
    (54, 7),
    (63, 8),
    (72, 9),
    (99, 12),
    (150, 18),
    (200, 24),
    (250, 30),
    (300, 36),
    (400, 45),
    (500, 54),
    (700, 72),
    (1000, 100),
)
MAX_DEFAULT_PLACES = 1000  # past this the harmonic row would give places 0 bp; configure a table


def places_paid(entries: int) -> int:
    """How many places the default payout table pays for `entries` entries (TRN-10)."""
    if entries < 1:
        raise PokerError("no_entries", "a payout needs at least one entry", rule="TRN-10")
    for max_entries, paid in DEFAULT_PLACES_PAID:
        if entries <= max_entries:
            return paid
    paid = entries // 10
    if paid > MAX_DEFAULT_PLACES:
        raise PokerError(
            "no_default_payouts",
            f"no default payout table for {entries} entries; set one on the tournament",
            rule="TRN-10",
        )
    return paid


@cache
def _harmonic_row(paid: int) -> tuple[int, ...]:
    # Place i gets a share proportional to 1/i: a smooth, top-heavy curve for larger fields.
    # Integer weights (lcm-free: a large numerator divided by i) keep floats out; floors never
    # increase down the row and the remainder goes to first place, so the row stays monotone.
    scale = 10**15
    weights = [scale // place for place in range(1, paid + 1)]
    total = sum(weights)
    row = [BASIS_POINTS * w // total for w in weights]
    row[0] += BASIS_POINTS - sum(row)
    return tuple(row)


def default_payout_percentages(entries: int) -> tuple[int, ...]:
    """Default payout row (basis points per place, first place first) for a field (TRN-10).

    Each row sums to 10 000 bp and never increases from one place to the next. A tournament's own
    payout table, when set, replaces this default.
    """
    paid = places_paid(entries)
    return _SMALL_ROWS.get(paid) or _harmonic_row(paid)


def payout_amounts(
    *, prize_pool_cents: int, percentages: Sequence[int], smallest_chip_cents: int
) -> list[int]:
    """Prize per place, in cents, first place first (TRN-10).

    Each place gets its percentage (basis points) of the prize pool rounded DOWN to the smallest
    chip; the rounding remainder goes to first place, so the amounts sum to the prize pool
    exactly (even when the pool itself is not a whole number of chips).
    """
    if not percentages:
        raise PokerError("no_places", "a payout table pays at least one place", rule="TRN-10")
    if any(bp < 0 for bp in percentages) or sum(percentages) != BASIS_POINTS:
        raise PokerError("bad_percentages", "payout percentages must be >= 0 and sum to 100 %", rule="TRN-10")
    if prize_pool_cents < 0 or smallest_chip_cents <= 0:
        raise PokerError("bad_amount", "prize pool must be >= 0 and the chip > 0", rule="TRN-10")
    amounts = []
    for bp in percentages:
        exact_floor = prize_pool_cents * bp // BASIS_POINTS
        amounts.append(exact_floor - exact_floor % smallest_chip_cents)
    amounts[0] += prize_pool_cents - sum(amounts)
    return amounts


@dataclass(frozen=True)
class Finish:
    """A finishing place: 1 is the winner."""

    player: PlayerId
    place: int


def finishing_places(
    *, players_left_before_hand: int, busted: Sequence[tuple[PlayerId, int]]
) -> list[Finish]:
    """Places of the players knocked out in one hand, best place first (TRN-10).

    `players_left_before_hand` counts the players in the tournament when the hand began;
    `busted` lists (player, chips at the start of that hand). Players busting in the same hand
    take the lowest open places, and the larger starting stack finishes higher. Equal starting
    stacks keep the order given (the first listed finishes higher): every player gets a place of
    his own, so the payout table applies unchanged; a venue that splits tied places' prizes does
    so over the returned places.
    """
    if not 0 < len(busted) <= players_left_before_hand:
        raise PokerError("bad_bust", "busted players must be among those left", rule="TRN-10")
    if players_left_before_hand - len(busted) < 1:
        raise PokerError("no_winner", "at least one player must survive the hand", rule="TRN-10")
    # sorted() is stable, so equal stacks keep the caller's order.
    ordered = sorted(busted, key=lambda entry: -entry[1])
    best_place = players_left_before_hand - len(busted) + 1
    return [Finish(player=player, place=best_place + i) for i, (player, _) in enumerate(ordered)]


def shared_prizes(
    *,
    finishes: Sequence[tuple[PlayerId, int, int]],
    prize_of_place: Sequence[int],
    smallest_chip_cents: int,
) -> dict[PlayerId, int]:
    """Prizes of the players out in one hand (or one hand-for-hand round, SER-3), in cents
    (TRN-10).

    `finishes` lists (player, place, chips at the start of the hand) as `finishing_places` gave
    them; `prize_of_place[p - 1]` is place p's prize (places past the table pay 0). Players with
    equal starting stacks tie: they share their places' prizes equally, each share rounded down
    to the smallest chip, and the remainder goes to the best-placed of them, so the sum of the
    shares is the sum of those places' prizes exactly. Different stacks keep their own places'
    prizes.
    """
    if smallest_chip_cents <= 0:
        raise PokerError("bad_amount", "the smallest chip must be > 0", rule="TRN-10")

    def prize(place: int) -> int:
        return prize_of_place[place - 1] if 0 < place <= len(prize_of_place) else 0

    by_stack: dict[int, list[tuple[PlayerId, int]]] = {}
    for player, place, stack in finishes:
        by_stack.setdefault(stack, []).append((player, place))
    shares: dict[PlayerId, int] = {}
    for tied in by_stack.values():
        tied.sort(key=lambda row: row[1])
        pool = sum(prize(place) for _player, place in tied)
        each = pool // len(tied)
        each -= each % smallest_chip_cents
        for player, _place in tied:
            shares[player] = each
        shares[tied[0][0]] += pool - each * len(tied)
    return shares
