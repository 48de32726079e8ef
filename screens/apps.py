from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScreensConfig(AppConfig):
    """Everything many screens poll: the floor view, the TV clock, the waiting board and the
    players' public pages (the room page, a tournament's page, the QR code). It reads the games
    only through their selectors and writes nothing; imported by nobody (the URLconf mounts its
    URL modules by name)."""

    name = "screens"
    verbose_name = _("Room screens")
