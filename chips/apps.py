from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ChipsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chips"
    verbose_name = _("Chips")

    def ready(self) -> None:
        # Imported once the app registry is ready: the defaults import the models.
        from chips.defaults import default_chip_sets_ensure

        # After every migrate and every flush of a test database, as the venue and the groups.
        post_migrate.connect(default_chip_sets_ensure, sender=self, dispatch_uid="chips_default_sets")
