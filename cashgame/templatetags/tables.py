"""Drawing a table: where each seat sits around the oval, and chip counts in the one format."""

import math

from django import template

from cardroom.money import format_chips, format_eur

register = template.Library()


@register.filter
def seat_style(number: int, seats: int) -> str:
    """`left`/`top` (percent of the drawing) of seat `number` of `seats`, clockwise around the
    oval from the dealer's left; the dealer's place at the top stays free. Seat boxes are
    centred on the point (the stylesheet translates them by half their size)."""
    angle = -math.pi / 2 + 2 * math.pi * number / (seats + 1)
    # Slightly pinched towards the axes (cos and sin to the power 1.1): with the drawing's 10:7
    # shape and 84 x 52 px seats, ten seats never overlap from 400 px wide up.
    left = 50 + 44 * _pinch(math.cos(angle))
    top = 50 + 43 * _pinch(math.sin(angle))
    return f"left:{left:.1f}%;top:{top:.1f}%"


def _pinch(value: float) -> float:
    return math.copysign(abs(value) ** 1.1, value)


@register.filter
def chips(count: int | None) -> str:
    """{{ entry.stack_chips|chips }} -> "25,000" (25 000 in Slovak)."""
    return format_chips(count)


@register.filter
def amount(cents: int | None) -> str:
    """Cents as the text a money field takes back ("120.00"; "120,00" in Slovak)."""
    return format_eur(cents, with_currency=False)


@register.filter
def clock_time(milliseconds: int | None) -> str:
    """What is left of a level as the clock shows it: 12:05, or 1:02:05 past an hour."""
    if milliseconds is None:
        return "—"
    total = max(0, math.ceil(milliseconds / 1000))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


@register.filter
def state_actions(session) -> list[str]:
    """The seat-state actions a seated player's state allows (CSH-6), and no others."""
    from cashgame.services.sessions import STATE_ACTIONS

    return [action for action, (states, _target) in STATE_ACTIONS.items() if session.state in states]
