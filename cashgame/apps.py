from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashgameConfig(AppConfig):
    name = "cashgame"
    verbose_name = _("Cash games")
