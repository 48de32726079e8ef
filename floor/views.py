"""The floor view: one live page for the whole room, where the floor starts from."""

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.views import View
from django.views.generic import TemplateView

from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from floor.drawing import room_drawing
from floor.selectors import room_get

# The cage sees the room too (who sits where, before a cash-out) but acts on no seat: floor
# staff run the games, cashiers post the money (ROL-1).
ROOM_VIEW_ROLES = (*FLOOR_ROLES, *CASHIER_ROLES)


class RoomView(RoleRequiredMixin, TemplateView):
    """The whole page: the room (polled, see RoomLiveView) and the seat panel beside it."""

    allowed_roles = ROOM_VIEW_ROLES
    template_name = "floor/floor.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            room=room_get(),
            tappable=has_role(self.request.user, *FLOOR_ROLES),
            next=reverse("floor:room"),
            **kwargs,
        )


class RoomLiveView(RoleRequiredMixin, View):
    """The room alone, which the page asks for every second and swaps in place: the last
    drawing, which a worker keeps fresh for every floor screen (floor.drawing). A change shows
    within about a second and a half; the change the floor just made, at once."""

    allowed_roles = ROOM_VIEW_ROLES

    def get(self, request, *args, **kwargs):
        return HttpResponse(
            room_drawing(language=get_language(), tappable=has_role(request.user, *FLOOR_ROLES))
        )
