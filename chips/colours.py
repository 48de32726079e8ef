"""The default chip colours' names in the page's language (the migration stores English)."""

from django.utils.translation import gettext_lazy as _

COLOUR_TEXTS = {
    "White": _("White"),
    "Grey": _("Grey"),
    "Yellow": _("Yellow"),
    "Red": _("Red"),
    "Green": _("Green"),
    "Black": _("Black"),
    "Purple": _("Purple"),
    "Orange": _("Orange"),
    "Blue": _("Blue"),
    "Cash chips": _("Cash chips"),
    "Tournament chips": _("Tournament chips"),
}


def colour_text(stored: str) -> str:
    return str(COLOUR_TEXTS.get(stored, stored))
