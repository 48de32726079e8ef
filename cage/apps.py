from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CageConfig(AppConfig):
    name = "cage"
    verbose_name = _("Cage")

    def ready(self):
        from cage import printouts
        from cashier.signals import transaction_recorded

        # Every door's receipt prints at its desk's printer, not only the cage desk's (CAG-4).
        transaction_recorded.connect(
            printouts.receipt_print_when_committed, dispatch_uid="cage.receipt_print"
        )
