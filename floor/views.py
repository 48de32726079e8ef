"""The floor view: one live page for the whole room, where the floor starts from."""

from django.urls import reverse
from django.views.generic import TemplateView

from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
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


class RoomLiveView(RoomView):
    """The room alone, which the page asks for every second and swaps in place."""

    template_name = "floor/_room.html"
