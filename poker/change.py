"""Making change in chips (CHP-2): which chips make an amount, from the chips there are.

The cage hands a cash-game buy-in out in chips and takes chips back at a cash-out; the money is
exact, so the chips must be too. A breakdown is deterministic (the same stock and amount always
give the same chips) and takes the largest chips first. A buy-in prefers chips worth at most a
quarter of the amount, so it comes as a stack the table can play with (200.00 EUR as 8 x 25.00
rather than 2 x 100.00); when the stock runs short of those chips, larger ones make up the rest.

Values are plain integers in one unit (cents for cash chips); `None` as a count means "as many
as needed" (a stock nobody counts, such as the chips players took back from the tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd

from poker.common import PokerError

RULE = "CHP-2"

# A search through a pathological stock stops here and answers "cannot"; real chip sets of up to
# a dozen denominations finish in a few dozen steps.
MAX_STEPS = 20_000

Stock = Mapping[int, int | None]


def _check(amount: int, stock: Stock) -> list[tuple[int, int | None]]:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise PokerError("bad_amount", "an amount in chips is a whole number, 0 or more", rule=RULE)
    chips = []
    for value, count in stock.items():
        if not isinstance(value, int) or value <= 0:
            raise PokerError("bad_denomination", "a chip's value is a positive whole number", rule=RULE)
        if count is not None and count < 0:
            raise PokerError("bad_stock", "a stock holds 0 or more chips of each value", rule=RULE)
        chips.append((value, count))
    return sorted(chips, reverse=True)


def _search(amount: int, chips: list[tuple[int, int | None]]) -> dict[int, int] | None:
    """The chips in the order given, as many of each as fit, backing off one at a time when the
    rest cannot be made; None when no combination of the stock makes the amount."""
    # What the chips from index i on can make at most, and the step every sum of them takes.
    reach: list[int | None] = [0] * (len(chips) + 1)
    step = [0] * (len(chips) + 1)
    for index in range(len(chips) - 1, -1, -1):
        value, count = chips[index]
        below = reach[index + 1]
        reach[index] = None if count is None or below is None else below + value * count
        step[index] = gcd(step[index + 1], value)
    steps = 0

    def make(rest: int, index: int) -> dict[int, int] | None:
        nonlocal steps
        if rest == 0:
            return {}
        if index == len(chips) or rest % step[index] or (reach[index] is not None and rest > reach[index]):
            return None
        value, count = chips[index]
        most = rest // value if count is None else min(count, rest // value)
        for taken in range(most, -1, -1):
            steps += 1
            if steps > MAX_STEPS:
                return None
            found = make(rest - taken * value, index + 1)
            if found is not None:
                if taken:
                    found[value] = taken
                return found
        return None

    return make(amount, 0)


def chips_for(amount: int, stock: Stock, *, stack: bool = False) -> dict[int, int] | None:
    """The chips that make `amount` out of `stock` ({value: chips}, largest first), or None when
    the stock cannot make it. With `stack`, chips worth more than a quarter of the amount are
    used only when the smaller ones run out."""
    chips = _check(amount, stock)
    if stack:
        # The stack's chips first, largest first; then the larger chips, largest first.
        chips = [chip for chip in chips if chip[0] * 4 <= amount] + [
            chip for chip in chips if chip[0] * 4 > amount
        ]
    found = _search(amount, chips)
    return dict(sorted(found.items(), reverse=True)) if found is not None else None
