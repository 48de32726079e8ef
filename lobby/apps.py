from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    """The players' public pages (no log-in, phone first): the room page (games running, today's
    tournaments) and each tournament's page (clock, structure, payouts, find my seat, results),
    and the QR code the room's screens show for them. Reads the games' selectors, writes
    nothing; imported by nobody but the URLconf."""

    name = "lobby"
    verbose_name = _("Public pages")
