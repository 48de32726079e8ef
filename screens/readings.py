"""The readings many screens share (the floor view, the TV clock, the players' room page)."""

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")


def shared_reading(key: str, read: Callable[[], T], *, every: float) -> T:
    """What many screens poll, read once every `every` seconds for all of them (Django's cache).

    The floor's screens, the TVs and the players' phones each poll each second or so; reading
    the room once per screen would cost the room's work times its screens. Here the first
    poll of each period reads (`read()`) while the polls arriving during that reading are
    answered with the last one, at most one period old, instead of reading too: with sync web
    workers, ten screens reading at once would hold every worker and queue the dealers' taps
    behind them. The value must pickle (Django's cache).
    """
    moment = int(time.time() / every)
    last = cache.get(f"{key}:last")
    if last is not None and last[0] == moment:
        return last[1]
    # The first of this period to get the token reads; the others keep the last reading.
    if last is not None and not cache.add(f"{key}:reading:{moment}", 1, timeout=max(5, 2 * every)):
        return last[1]
    value = read()
    cache.set(f"{key}:last", (moment, value), timeout=max(5, 4 * every))
    return value
