"""The players' public pages: no log-in, read-only, phone first, in the language of `?lang=`.

The room page's live part is polled every LIVE_POLL_SECONDS and drawn at most once per
DRAWING_SECONDS for every phone together, so a floor action shows within their sum (7 s; the
issue asks for 10 s) however many phones look.
"""

import functools
import io

import segno
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.views import View
from django.views.decorators.http import condition
from django.views.generic import TemplateView

from cardroom.screen_language import ScreenLanguageMixin
from cardroom.views import venue_public_url
from screens.public import room_public_get, tournament_public_get
from screens.readings import Tagged, shared_reading
from screens.views.tv import tournament_or_404, tv_labels

LIVE_POLL_SECONDS = 5
DRAWING_SECONDS = 2
# A name or an entry number: anything longer is not one.
FIND_MAX_LENGTH = 80
ROOM_LIVE_TEMPLATE = "screens/room/_room.html"


class RoomView(ScreenLanguageMixin, TemplateView):
    template_name = "screens/room/room.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            room=room_public_get(), poll_seconds=LIVE_POLL_SECONDS, qr_url=reverse("lobby:qr"), **kwargs
        )


def _room_live(request) -> Tagged:
    """This period's drawing of the room page's live part with its tag, kept on the request
    (its tag is asked first, for the ETag)."""
    if not hasattr(request, "room_live"):
        request.room_live = shared_reading(
            f"lobby-room:{get_language()}",
            lambda: Tagged.of(render_to_string(ROOM_LIVE_TEMPLATE, {"room": room_public_get()}, request)),
            every=DRAWING_SECONDS,
        )
    return request.room_live


def _room_live_tag(request, *args, **kwargs) -> str:
    return _room_live(request).tag


class RoomLiveView(ScreenLanguageMixin, View):
    """The room page's games and tournaments alone, swapped in place by the page's poll. Its
    ETag is the drawing's digest and browsers keep the answer but ask each time (no-cache), so
    a poll that finds the room as it was is a 304 with no body."""

    @method_decorator(condition(etag_func=_room_live_tag))
    def get(self, request, *args, **kwargs):
        response = HttpResponse(_room_live(request).text)
        response["Cache-Control"] = "no-cache"
        return response


class TournamentView(ScreenLanguageMixin, TemplateView):
    """One tournament for the players: the TV's clock (the same state and script), the structure,
    the payouts, the field, find my seat, and once it is over the results and the deal."""

    template_name = "screens/room/tournament.html"

    def get_context_data(self, **kwargs):
        tournament = tournament_or_404(kwargs["pk"])
        find = self.request.GET.get("find", "")[:FIND_MAX_LENGTH]
        return super().get_context_data(
            **tournament_public_get(tournament=tournament, find=find),
            find=find,
            clock_labels=tv_labels(),
            **kwargs,
        )


@functools.lru_cache(maxsize=64)
def qr_svg(address: str) -> str:
    """The QR code of an address as an SVG document: black on a white quiet zone, so it scans on
    the black screens; it scales to whatever size the screen gives it (a viewBox, no size)."""
    code = segno.make(address, error="m", micro=False)
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", xmldecl=False, border=4, dark="#000", light="#fff", omitsize=True)
    return buffer.getvalue().decode()


class QrView(View):
    """The room page's address as a QR code (an SVG image), for the TV clock and the waiting
    board: the page of the screen's own venue (VEN-1), at PUBLIC_BASE_URL or at the address the
    screen was opened by (cardroom.views.venue_public_url). The image's address is the venue's
    own (/v/<slug>/room/qr.svg, or under its host name), so a browser's copy is one venue's."""

    def get(self, request):
        address = venue_public_url(request, "lobby:room")
        response = HttpResponse(qr_svg(address), content_type="image/svg+xml")
        response["Cache-Control"] = "public, max-age=3600"
        return response
