from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    """The room at a glance: every cash and tournament table drawn, the waiting lists and the
    clocks. Reads the games' selectors, writes nothing itself; imported by nobody but the URLconf."""

    name = "floor"
    verbose_name = _("Floor view")
