"""Deals at the final table (TRN-10): ICM equities, and the prizes left shared by ICM or by a
chip chop, in whole chips.

Money is integer cents, stacks are integer chips. Exact fractions (`fractions.Fraction`) are used
until the last step, and every function hands out its total exactly: the rounding remainder goes
to the chip leader by a stated rule, never lost or invented. What the deal shares (the prizes
left, the places still to pay, the counted stacks) is read by the caller; nothing here knows a
tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from poker.common import PokerError

# Exact ICM walks every subset of the players left: 2^10 subsets stay instant.
ICM_MAX_PLAYERS = 10
DEAL_METHODS = ("icm", "chip_chop")


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


def deal_shares(
    *,
    method: str,
    stacks: Sequence[int],
    places_left: Sequence[int],
    prizes_left_cents: int,
    smallest_chip_cents: int,
) -> list[int]:
    """The players' shares of a deal (TRN-10), in cents, in the order of `stacks` (chips).

    `places_left` are the prizes of the places no finished player holds, first place first, and
    `prizes_left_cents` what the deal shares: every place's prize less what the finished players
    won. ICM shares the places the players left would take (as many places as players), so those
    must add up to the prizes left, or a prize would be lost; a chip chop shares the prizes left
    in proportion to the stacks. Either way each share is whole chips but the chip leader's.
    """
    if method not in DEAL_METHODS:
        raise PokerError("deal_method", "a deal is calculated by ICM or a chip chop", rule="TRN-10")
    if method == "chip_chop":
        return chip_chop(stacks, prizes_left_cents, smallest_chip_cents)
    if len(stacks) > ICM_MAX_PLAYERS:
        raise PokerError(
            "icm_too_many", f"ICM is offered for {ICM_MAX_PLAYERS} players or fewer", rule="TRN-10"
        )
    places = list(places_left[: len(stacks)])
    if sum(places) != prizes_left_cents:
        raise PokerError(
            "deal_places", "the places still to pay do not add up to the prizes left", rule="TRN-10"
        )
    return icm_deal(stacks, places, smallest_chip_cents)
