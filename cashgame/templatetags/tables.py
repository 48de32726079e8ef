"""Drawing a table: where each seat sits around the oval, and chip counts in the one format."""

import math
from functools import lru_cache
from urllib.parse import quote

from django import template
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, pgettext

from cardroom.money import format_chips, format_eur
from cashgame.models import STATE_ACTIONS, SeatState

register = template.Library()


@register.filter
@lru_cache(maxsize=512)
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
def state_actions(session, big_blind_cents: int | None = None) -> list[str]:
    """The seat-state actions a seated player's state allows (CSH-6), and no others; given the
    table's big blind, not those that put in play a player short of one big blind (CSH-5), which
    the service would refuse: `session|state_actions:table.game.big_blind_cents`."""
    short = (
        big_blind_cents is not None
        and session.last_counted_cents is not None
        and session.last_counted_cents < big_blind_cents
    )
    return [
        action
        for action, (states, target) in STATE_ACTIONS.items()
        if session.state in states and not (short and target == SeatState.PLAYING)
    ]


@register.simple_tag(takes_context=True)
def drawn_seat(context, seat: dict, drawing: dict, tappable: bool, next_url: str) -> str:
    """One seat of a drawn table (tables/_table.html): a link that opens its panel where the
    user may act on it, else a plain box.

    Built as one string rather than through the template engine or `format_html`, because the
    floor view draws every seat of the room (about 550 with the cage's tables) for each drawing:
    thirty template nodes a seat took about 100 ms a room, `format_html` pieces about 40 ms,
    this a few. Every value from the database passes `escape`; the rest is our own markup."""
    number, state = seat["number"], seat["state"]
    words = context.render_context.get("seat_words")
    if words is None:  # once a drawn table (render_context lives for one template's rendering)
        words = context.render_context["seat_words"] = _seat_words(get_language())
    dealt = " dealt" if seat.get("dealt") else ""
    style = seat_style(number, drawing["size"])
    if tappable and drawing["kind"] == "cash":
        target = escape(f"{_seat_panel_url(drawing['table'].pk, number)}?next={quote(next_url, safe='/')}")
        opening = (
            f'<a class="seat seat--{state}{dealt}" style="{style}" href="{target}" hx-get="{target}" '
            'hx-target="#seat-panel" hx-swap="innerHTML"'
        )
    elif tappable:
        opening = (
            f'<a class="seat seat--{state}" style="{style}" href="{_seating_url(drawing["tournament"].pk)}"'
        )
    else:
        opening = f'<div class="seat seat--{state}{dealt}" style="{style}"'
    name = escape(seat.get("name") or "")
    who = f"{name}, {escape(seat.get('label', ''))}" if name else words["free"]
    button = words["button"] if seat.get("button") else ""
    if name:
        if seat.get("stack_cents") is not None:
            info = f'<span class="seat-info">{escape(format_eur(seat["stack_cents"]))}</span>'
        elif seat.get("chips") is not None:
            info = f'<span class="seat-info">{escape(format_chips(seat["chips"]))}</span>'
        else:
            info = ""
        short = f'<span class="seat-state">{escape(seat["short"])}</span>' if seat.get("short") else ""
        body = f'<span class="seat-name">{name}</span>{info}{short}'
    else:
        body = f'<span class="seat-info">{words["free"]}</span>'
    closing = "a" if tappable else "div"
    label = words["seat"] % {"n": number}
    return mark_safe(  # noqa: S308 - every value from the database is escaped above
        f'{opening} data-seat="{number}" aria-label="{label}: {who}"><span class="seat-no">{number}</span>'
        f"{button}{body}</{closing}>"
    )


@lru_cache(maxsize=16)
def _seat_words(language: str | None) -> dict[str, str]:
    """The seat's fixed words in one language, translated and escaped once, not once a seat."""
    with translation.override(language):
        return {
            "free": escape(gettext("free")),
            "seat": escape(gettext("Seat %(n)s")),
            "button": (
                f'<span class="dealer-button" title="{escape(gettext("Button"))}">'
                f"{escape(pgettext('dealer button', 'D'))}</span>"
            ),
        }


# A table's addresses change only with the address prefix the page was asked by (/v/<slug>/ of
# a venue, VEN-1), which is part of the key; reversing one costs more than drawing its seat.
@register.filter
def cash_table_url(table_id: int) -> str:
    return _cash_table_url(get_script_prefix(), table_id)


@lru_cache(maxsize=1024)
def _cash_table_url(prefix: str, table_id: int) -> str:
    return reverse("cashgame:table", args=[table_id])


def _seat_panel_url(table_id: int, seat: int) -> str:
    return _seat_panel_url_at(get_script_prefix(), table_id, seat)


@lru_cache(maxsize=4096)
def _seat_panel_url_at(prefix: str, table_id: int, seat: int) -> str:
    return reverse("cashgame:seat-panel", args=[table_id, seat])


@register.filter(name="seating_url")
def _seating_url(tournament_id: int) -> str:
    return _seating_url_at(get_script_prefix(), tournament_id)


@lru_cache(maxsize=1024)
def _seating_url_at(prefix: str, tournament_id: int) -> str:
    return reverse("tournaments:seating", args=[tournament_id])
