"""The preset blind structures' names, descriptions and break notes in the page's language.

Migration 0002 stores the three presets in English (a migration's data cannot follow the
reader's language); the pages show a preset's name, description and its breaks' colour-up notes
("Colour up the 25 chips", copied into each tournament made from it) through these translated
texts while they are still the preset's own. A manager's renamed or rewritten text is shown as
typed.
"""

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cardroom.money import format_chips

COLOUR_UP_NOTE = re.compile(r"^Colour up the (?P<chips>\d+) chips$")

# Stored English text -> the same text for the catalogue (translated when shown).
PRESET_TEXTS = {
    "Turbo": _("Turbo"),
    "Regular": _("Regular"),
    "Deep stack": _("Deep stack"),
    "10-minute levels, big blind ante from level 4, a break every 6 levels.": _(
        "10-minute levels, big blind ante from level 4, a break every 6 levels."
    ),
    "20-minute levels, big blind ante from level 5, a break every 4 levels.": _(
        "20-minute levels, big blind ante from level 5, a break every 4 levels."
    ),
    "30-minute levels, big blind ante from level 5, a break every 5 levels.": _(
        "30-minute levels, big blind ante from level 5, a break every 5 levels."
    ),
}


def preset_text(stored: str) -> str:
    """A preset's stored English text in the active language; any other text as it is."""
    colour_up = COLOUR_UP_NOTE.match(stored)
    if colour_up:
        return gettext("Colour up the %(chips)s chips") % {"chips": format_chips(int(colour_up["chips"]))}
    return str(PRESET_TEXTS.get(stored, stored))
