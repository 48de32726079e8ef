"""Drawing a table: where each seat sits around the oval, and chip counts in the one format."""

import math
from functools import lru_cache
from urllib.parse import quote

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext

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


@register.simple_tag
def drawn_seat(seat: dict, drawing: dict, tappable: bool, next_url: str) -> str:
    """One seat of a drawn table (tables/_table.html): a link that opens its panel where the
    user may act on it, else a plain box. Built here rather than in the template because the
    floor view draws every seat of the room each time: 400 seats through the template engine
    took about 100 ms, and this a fraction of it."""
    number, state = seat["number"], seat["state"]
    dealt = " dealt" if seat.get("dealt") else ""
    style = seat_style(number, drawing["size"])
    if tappable and drawing["kind"] == "cash":
        target = f"{_seat_panel_url(drawing['table'].pk, number)}?next={quote(next_url, safe='/')}"
        opening = format_html(
            '<a class="seat seat--{}{}" style="{}" href="{}" hx-get="{}" hx-target="#seat-panel" '
            'hx-swap="innerHTML"',
            state,
            dealt,
            style,
            target,
            target,
        )
    elif tappable:
        seating = _seating_url(drawing["tournament"].pk)
        opening = format_html('<a class="seat seat--{}" style="{}" href="{}"', state, style, seating)
    else:
        opening = format_html('<div class="seat seat--{}{}" style="{}"', state, dealt, style)
    name = seat.get("name")
    who = f"{name}, {seat.get('label', '')}" if name else gettext("free")
    label = gettext("Seat %(n)s") % {"n": number} + f": {who}"
    button = (
        format_html(
            '<span class="dealer-button" title="{}">{}</span>',
            gettext("Button"),
            pgettext("dealer button", "D"),
        )
        if seat.get("button")
        else ""
    )
    if name:
        if seat.get("stack_cents") is not None:
            info = format_html('<span class="seat-info">{}</span>', format_eur(seat["stack_cents"]))
        elif seat.get("chips") is not None:
            info = format_html('<span class="seat-info">{}</span>', format_chips(seat["chips"]))
        else:
            info = ""
        short = format_html('<span class="seat-state">{}</span>', seat["short"]) if seat.get("short") else ""
        body = format_html('<span class="seat-name">{}</span>{}{}', name, info, short)
    else:
        body = format_html('<span class="seat-info">{}</span>', gettext("free"))
    return format_html(
        '{} data-seat="{}" aria-label="{}"><span class="seat-no">{}</span>{}{}</{}>',
        opening,
        number,
        label,
        number,
        button,
        body,
        "a" if tappable else "div",
    )


# The URLs never change while the process runs; reversing one costs more than drawing its seat.
@lru_cache(maxsize=4096)
def _seat_panel_url(table_id: int, seat: int) -> str:
    return reverse("cashgame:seat-panel", args=[table_id, seat])


@lru_cache(maxsize=1024)
def _seating_url(tournament_id: int) -> str:
    return reverse("tournaments:seating", args=[tournament_id])
