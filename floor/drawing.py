"""The floor view's drawing of the room (every table with its seats, the waiting counts, the
tournaments' clocks), kept fresh by a Celery worker for all the floor's screens.

Drawing a 40-table room takes about 60 ms; ten floor screens poll it every second. It is drawn
by a worker (`floor.room_draw`) at most every DRAWING_SECONDS while screens poll, and each poll
is answered with the last drawing (cardroom.screens.kept_reading), so a dealer's tap never waits
behind a drawing of the room on a web worker.
"""

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from cardroom.screens import kept_reading, reading_keep
from floor.selectors import room_get

DRAWING_SECONDS = 0.5
TEMPLATE = "floor/_room.html"


def _key(language: str, tappable: bool) -> str:
    return f"floor-room:{language}:{int(tappable)}"


def room_html(*, language: str, tappable: bool) -> str:
    """The room drawn now, in this language; `tappable`: seats open the floor's seat panel."""
    with translation.override(language):
        return render_to_string(
            TEMPLATE, {"room": room_get(), "tappable": tappable, "next": reverse("floor:room")}
        )


def room_drawing(*, language: str, tappable: bool) -> str:
    """The last drawing of the room (asking the worker for a new one when it is due)."""
    from floor.tasks import room_draw

    return kept_reading(
        _key(language, tappable),
        lambda: room_html(language=language, tappable=tappable),
        every=DRAWING_SECONDS,
        ask_worker=lambda: room_draw.delay(language=language, tappable=tappable),
    )


def room_redraw(*, language: str, tappable: bool) -> None:
    """Draw the room and keep the drawing for the screens' next polls (the worker's task)."""
    reading_keep(
        _key(language, tappable),
        lambda: room_html(language=language, tappable=tappable),
        every=DRAWING_SECONDS,
    )
