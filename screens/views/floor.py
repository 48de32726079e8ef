"""The floor view: one live page for the whole room, where the floor starts from."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.views.generic import TemplateView

from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from screens.floor import room_get
from screens.readings import shared_reading

# The cage sees the room too (who sits where, before a cash-out) but acts on no seat: floor
# staff run the games, cashiers post the money (ROL-1).
ROOM_VIEW_ROLES = (*FLOOR_ROLES, *CASHIER_ROLES)


class RoomView(RoleRequiredMixin, TemplateView):
    """The whole page: the room (polled, see RoomLiveView) and the seat panel beside it."""

    allowed_roles = ROOM_VIEW_ROLES
    template_name = "screens/floor/floor.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            room=room_get(),
            tappable=has_role(self.request.user, *FLOOR_ROLES),
            next=reverse("floor:room"),
            **kwargs,
        )


class RoomLiveView(RoomView):
    """The room alone, which the page asks for every second and swaps in place.

    Every floor screen polls each second, and drawing a room of 40 tables takes about 100 ms:
    one drawing each half second serves them all, so the room costs the same with one screen
    or ten. A change shows within half a second of it, plus the wait for the next poll.
    """

    template_name = "screens/floor/_room.html"
    DRAWING_SECONDS = 0.5

    def get(self, request, *args, **kwargs):
        tappable = has_role(request.user, *FLOOR_ROLES)
        html = shared_reading(
            f"floor-live:{get_language()}:{int(tappable)}",
            lambda: render_to_string(self.template_name, self.get_context_data(**kwargs), request),
            every=self.DRAWING_SECONDS,
        )
        return HttpResponse(html)
