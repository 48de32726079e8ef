from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChipsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chips"
    verbose_name = _("Chips")
