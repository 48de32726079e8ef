from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DealersConfig(AppConfig):
    """Dealers on shift, who deals where, their breaks and the push schedule (DLR-1, DLR-2).

    Reads the games' tables; the games never import it. It follows the room from its current
    state: the beat's reconciler replans when the open tables or the dealers on shift change."""

    name = "dealers"
    verbose_name = _("Dealers")
