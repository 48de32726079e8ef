"""The floor view: one live page for the whole room, where the floor starts from.

Every floor screen polls each second. The room is drawn once each half second for all of them
(screens.readings.shared_drawing), in parts: the waiting counts, each clock, each table. The poll
says which drawing the page holds (`?since=`, the drawing's tag) and is answered with what changed
since: nothing (an empty answer, and a 304 Not Modified once the browser holds it: the ETag is
the drawing's tag, and `Cache-Control: no-cache` makes the browser ask with If-None-Match), the
parts that changed (htmx out-of-band swaps), or the whole room when its frame changed.
"""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.views.decorators.http import condition
from django.views.generic import TemplateView

from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from screens.floor import room_drawn, room_frame
from screens.readings import Drawing, shared_drawing

# The cage sees the room too (who sits where, before a cash-out) but acts on no seat: floor
# staff run the games, cashiers post the money (ROL-1).
ROOM_VIEW_ROLES = (*FLOOR_ROLES, *CASHIER_ROLES)
# Drawing a room of 40 tables takes about 100 ms: one drawing each half second serves every
# screen, so the room costs the same with one screen or ten. A change shows within half a
# second of it, plus the wait for the next poll.
DRAWING_SECONDS = 0.5


def floor_drawing(request) -> Drawing:
    """This half second's drawing of the room, for the user's language and role (a cashier's
    seats open no panel); kept on the request, which asks for its tag first (the ETag)."""
    if not hasattr(request, "floor_drawing"):
        tappable = has_role(request.user, *FLOOR_ROLES)
        request.floor_drawing = shared_drawing(
            f"floor-room:{get_language()}:{int(tappable)}",
            lambda: room_drawn(tappable=tappable),
            every=DRAWING_SECONDS,
        )
    return request.floor_drawing


class RoomView(RoleRequiredMixin, TemplateView):
    """The whole page: the room (polled, see RoomLiveView) and the seat panel beside it."""

    allowed_roles = ROOM_VIEW_ROLES
    template_name = "screens/floor/floor.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            room=room_frame(floor_drawing(self.request), now=timezone.now()),
            tappable=has_role(self.request.user, *FLOOR_ROLES),
            **kwargs,
        )


def _drawing_tag(request, *args, **kwargs) -> str:
    return floor_drawing(request).tag


class RoomLiveView(RoleRequiredMixin, TemplateView):
    """The poll: what changed since the drawing the page holds (see the module)."""

    allowed_roles = ROOM_VIEW_ROLES

    @method_decorator(condition(etag_func=_drawing_tag))
    def get(self, request, *args, **kwargs):
        drawing = floor_drawing(request)
        held = request.GET.get("since")
        if held == drawing.tag:
            html = ""  # the page holds this drawing: nothing to swap
        else:
            changed = drawing.changed_since(held)
            if changed is None:
                context = {"room": room_frame(drawing, now=timezone.now()), "oob": True}
                html = render_to_string("screens/floor/_room.html", context, request)
            else:
                context = {"since": drawing.tag, "parts": changed}
                html = render_to_string("screens/floor/_changes.html", context, request)
        response = HttpResponse(html)
        # The browser keeps the answer and asks again with If-None-Match each time; for staff only.
        response["Cache-Control"] = "private, no-cache"
        return response
