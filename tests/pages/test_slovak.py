"""Slovak is complete: every page rendered in Slovak shows no English left, and the catalogue
has no untranslated or fuzzy message.

A text node (or a read attribute: placeholder, title, aria-label, alt) that is the same in the
English and the Slovak rendering of a page, and that holds a word not in the allow-list, is
English left untranslated. Numbers and amounts are no words; the allow-list holds the room's
own names (people, games, tournaments, log-ins, built into the room) and the few words that are
the same in both languages by nature, each with its reason.
"""

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import trans_real

from cardroom.selectors import venue_get
from tests.pages.walker import PAGES, open_as, page_url, text_nodes, words

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "sk" / "LC_MESSAGES" / "django.po"

# Words the same in English and Slovak pages on purpose.
ALLOWED_WORDS = {
    "EUR",  # the currency's code, as on every receipt in the euro area
    "EN",  # the language switch shows each language's own code
    "SK",
    "NLHE",  # the game's name on the room's boards (No-Limit Hold'em), written so in Slovakia too
    "PLO",
    "min",  # minutes: "2 h 00 min" reads the same in Slovak
    "CSV",  # file formats, named on their download links
    "JSON",
}


def translated_as_themselves() -> set[str]:
    """Messages the Slovak catalogue translates as themselves: the game's own words that Slovak
    players and dealers use in English (Flop, Rake, Rebuy, ICM...). A translator's decision,
    made in the catalogue where a reviewer sees it, not an omission."""
    catalog = trans_real.translation("sk")._catalog
    return {msgid for msgid, msgstr in catalog.items() if isinstance(msgid, str) and msgid == msgstr}


def render(client, room, name: str, language: str) -> list[str]:
    open_as(client, name, room)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(page_url(name, room), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language
    return text_nodes(response.content.decode())


def english_left(
    english: list[str], slovak: list[str], allowed: set[str], same_in_both: set[str] = frozenset()
) -> list[str]:
    """Slovak nodes equal to an English node that hold a word not allowed."""
    same = set(english) - set(same_in_both)
    return sorted({node for node in slovak if node in same and set(words(node)) - allowed})


def test_english_left_finds_a_node_the_same_in_both_with_an_english_word():
    english = ["Open shift", "Ján Novák", "150.00 EUR", "Rake"]
    slovak = ["Otvoriť smenu", "Ján Novák", "150,00 EUR", "Rake"]
    assert english_left(english, slovak, {"Ján", "Novák", "EUR"}) == ["Rake"]
    assert english_left(english, slovak, {"Ján", "Novák", "EUR"}, {"Rake"}) == []


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_shows_no_english_in_slovak(client, room, name):
    names = {word for name in room.names() for word in words(name)}
    allowed = ALLOWED_WORDS | names | set(words(venue_get().name))
    english = render(client, room, name, "en")
    slovak = render(client, room, name, "sk")
    left = english_left(english, slovak, allowed, translated_as_themselves())
    assert left == [], "English left on the Slovak page:\n" + "\n".join(f"  [{node}]" for node in left)


def test_slovak_catalogue_has_no_untranslated_or_fuzzy_message():
    result = subprocess.run(
        ["msgfmt", "--statistics", "--check-format", "-o", "/dev/null", str(CATALOGUE)],
        capture_output=True,
        text=True,
        check=True,
    )
    # msgfmt prints e.g. "1450 translated messages." and only names the other kinds when present.
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr, result.stderr
    assert result.stderr.strip().endswith("translated messages.")


# English number formats: "150.00 EUR" (a decimal point before cents), "20,000" (a comma
# between thousands). Slovak pages write 150,00 EUR and 20 000 (cardroom/money.py).
ENGLISH_NUMBER = re.compile(r"\d\.\d{2}\s?EUR|\b\d{1,3}(?:,\d{3})+\b(?!,)")


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_writes_money_and_chips_the_slovak_way(client, room, name):
    slovak = render(client, room, name, "sk")
    found = sorted({node for node in slovak if ENGLISH_NUMBER.search(node)})
    assert found == [], "English numbers on the Slovak page:\n" + "\n".join(f"  [{node}]" for node in found)
