"""Tournament payouts, finishing places, ICM and chip-chop deals (TRN-10).

Money is integer cents, percentages are basis points (10 000 bp = 100 %), stacks are integer
chips. Exact fractions (`fractions.Fraction`) are used where a share is not a whole cent, and
every function hands out its total exactly: rounding remainders are given back by a stated rule,
never lost or invented.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
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


def _apportion(total: int, exact: Sequence[Fraction], tiebreak: Sequence[int]) -> list[int]:
    """Whole units summing to `total` from exact shares that sum to `total`.

    Each share is floored; the units left go one each to the largest fractional parts, ties to
    the larger `tiebreak` value (the bigger stack), then to the earlier position.
    """
    floors = [share.numerator // share.denominator for share in exact]
    left = total - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), -tiebreak[i], i))
    for i in order[:left]:
        floors[i] += 1
    return floors


def _icm_exact(stacks: Sequence[int], payouts: Sequence[int]) -> list[Fraction]:
    """Exact ICM equity per player (cents as fractions); see icm_equities."""
    n = len(stacks)
    if n == 0 or any(s <= 0 for s in stacks):
        raise PokerError("bad_stacks", "ICM needs at least one player, all with chips")
    if len(payouts) > n or any(p < 0 for p in payouts):
        raise PokerError("bad_payouts", "at most one non-negative prize per player")
    places = len(payouts)
    full = (1 << n) - 1
    chips_in = [sum(stacks[i] for i in range(n) if mask >> i & 1) for mask in range(full + 1)]

    # reach[mask]: probability that exactly the players in `mask` are still unplaced. Walk the
    # subsets from the full table down; a subset of size m is reached after n - m places.
    reach: dict[int, Fraction] = {full: Fraction(1)}
    equity = [Fraction(0)] * n
    frontier = [full]
    for place in range(places):
        next_frontier: dict[int, None] = {}
        for mask in frontier:
            p_mask = reach.pop(mask)
            total = chips_in[mask]
            for i in range(n):
                if mask >> i & 1:
                    p = p_mask * stacks[i] / total
                    equity[i] += p * payouts[place]
                    rest = mask & ~(1 << i)
                    if place + 1 < places:
                        reach[rest] = reach.get(rest, Fraction(0)) + p
                        next_frontier[rest] = None
        frontier = list(next_frontier)
    return equity


def icm_equities(stacks: Sequence[int], payouts: Sequence[int]) -> list[int]:
    """Tournament equity per player in cents, by the Malmuth-Harville model (ICM).

    A player finishes first with probability stack / total chips; given who finished above, the
    next place is drawn the same way among the rest. `payouts` are the prizes still to be paid,
    first place first (at most one per player). Exact fractions throughout, over memoised subsets
    of remaining players; the result is rounded to cents by largest remainder (ties to the bigger
    stack) and sums to `sum(payouts)` exactly. A deal pays `icm_deal` (whole chips) instead.
    """
    return _apportion(sum(payouts), _icm_exact(stacks, payouts), stacks)


def _deal_in_chips(
    exact: Sequence[Fraction], total_cents: int, stacks: Sequence[int], chip: int
) -> list[int]:
    """Deal shares paid as payouts are (TRN-10): each exact share rounded DOWN to the smallest
    chip, and everything left over (whole chips and any part of one) goes to the chip leader,
    the largest stack (the first listed on a tie), whose share is the largest. The shares sum to
    `total_cents` exactly."""
    if total_cents < 0 or chip <= 0:
        raise PokerError("bad_amount", "prize money must be >= 0 and the chip > 0", rule="TRN-10")
    shares = [(share.numerator // share.denominator) // chip * chip for share in exact]
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    shares[leader] += total_cents - sum(shares)
    return shares


def icm_deal(stacks: Sequence[int], payouts: Sequence[int], smallest_chip_cents: int) -> list[int]:
    """An ICM deal (TRN-10): each player's ICM equity (see icm_equities) rounded down to the
    smallest chip, the remainder to the chip leader; the shares sum to `sum(payouts)` exactly."""
    return _deal_in_chips(_icm_exact(stacks, payouts), sum(payouts), stacks, smallest_chip_cents)


def chip_chop(stacks: Sequence[int], prize_pool_cents: int, smallest_chip_cents: int) -> list[int]:
    """Split the remaining prize pool in proportion to chip counts (a "chip chop" deal, TRN-10).

    Each share is rounded down to the smallest chip and the remainder goes to the chip leader,
    as in icm_deal, so the shares sum to the pool exactly.
    """
    if not stacks or any(s < 0 for s in stacks) or sum(stacks) == 0:
        raise PokerError("bad_stacks", "a chop needs players with chips")
    chips_total = sum(stacks)
    exact = [Fraction(prize_pool_cents * s, chips_total) for s in stacks]
    return _deal_in_chips(exact, prize_pool_cents, stacks, smallest_chip_cents)
