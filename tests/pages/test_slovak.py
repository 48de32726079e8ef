"""Slovak is complete: every page rendered in Slovak shows no English left and no rule ID, and
the catalogue has no untranslated or fuzzy message and no English word left in a translation.

Two checks on each page's text (text nodes and the read attributes: placeholder, title,
aria-label, alt):
- a node that is the same in the English and the Slovak rendering and holds a word not in the
  allow-list is English left untranslated (data shown as stored, a message not marked);
- a Slovak node that holds a word of the English catalogue (a word of some msgid) that is not
  also Slovak (SLOVAK_TOO) is English mixed into Slovak, such as "Nehrá (sit out)".
Numbers and amounts are no words; the allow-lists hold the room's own names (people, games,
tournaments, log-ins, built into the room) and the words that are the same in both languages,
each with its reason.
"""

import functools
import gettext
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import trans_real

from cardroom.selectors import venue_get
from tests.pages.test_no_code_words import RULE_ID
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
    "PDF",
    "Excel",  # the spreadsheet's name, on the XLSX download links
    "SMS",  # a text message: "SMS" in Slovak too
}


# Words of the English catalogue that Slovak writes too: the game's own words that Slovak rooms
# use as they are, Slovak words spelled like English ones, names of products and formats.
SLOVAK_TOO = {
    # Poker: blind, ante, flop, turn, river, pot, rake, drop (box), board, button, stack,
    # straddle, jackpot, bad beat, bounty, rebuy, add-on, re-entry, all-in, Hold'em, No-Limit,
    # Fixed-Limit, Omaha, draw, turbo, floor (the floor staff), ICM, BB (big blind ante), cash (games),
    # full house
    *("ante", "blind", "flop", "turn", "river", "pot", "rake", "drop", "box", "board", "button"),
    *("stack", "straddle", "jackpot", "bad", "beat", "bounty", "rebuy", "add", "on", "re", "entry"),
    *("all", "in", "hold", "em", "no", "limit", "fixed", "omaha", "draw", "turbo", "floor", "icm"),
    *("bb", "cash", "full", "house"),
    # Slovak words: "do" (to, until), "to" (it), "tie" (those), "pre" (for), "so" (with), "by" (would), "role"
    # (roles), "min"/"max"/"maximum"/"plus"/"text"/"index"/"tablet"/"limit" (the same words)
    *("do", "to", "tie", "pre", "so", "by", "role", "min", "max", "maximum", "plus", "text", "index"),
    "tablet",
    # Cards as the calculators write them ("As, Td, 9h"), a pairing code's example ("ABCD-EFGH")
    *("as", "td", "abcd", "efgh"),
    # Cards as the high-hand claim's examples write them ("Ah Kd", board "Qs Jc Th 2d 3c", LOY-2)
    *("ah", "kd", "qs", "jc", "th"),
    # Codes and names: EUR, AML, ID, CSV, JSON, XLSX, UTF-8, TV, QR, ms, SQLite, PostgreSQL; a
    # browser's cookie ("súbor cookie" in Slovak too); "server" (the same word in Slovak); NUL (a
    # character's name)
    *("eur", "aml", "id", "csv", "json", "xlsx", "utf", "tv", "qr", "ms", "sqlite", "postgresql", "cookie"),
    *("server", "nul", "pdf", "excel"),
    # Printers: "port" (the same word in Slovak), USB, mm (millimetres of paper), the code pages'
    # names (ISO 8859-2, Latin-2, Windows-1250, PC852)
    *("port", "usb", "mm", "iso", "latin", "windows", "pc"),
    # A text message (SMS, the same in Slovak); the notices' web standards and their key and
    # address kinds named in the rule book: Web Push, VAPID, https, http, P-256
    *("sms", "web", "push", "vapid", "https", "http", "p"),
}
# Placeholders, file-format tokens (with an underscore) and command-line options are no words.
CODE_TOKENS = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdrfi]|%[sdr]|\{\{[^}]*\}\}|\S*_\S*|--\S+")


def catalogue_words(text: str) -> set[str]:
    return {word.lower() for word in words(CODE_TOKENS.sub(" ", text))}


def our_catalogue() -> dict:
    """The project's own Slovak catalogue (Django's and DRF's are theirs), compiled."""
    return gettext.translation("django", localedir=CATALOGUE.parents[2], languages=["sk"])._catalog


@functools.cache
def english_vocabulary() -> frozenset[str]:
    """Every word of the English catalogue's messages that is not also Slovak (read once a
    process: every page's test asks, and the catalogue does not change during a run)."""
    catalog = our_catalogue()
    found = set()
    for key, _msgstr in catalog.items():
        for msgid in key if isinstance(key, tuple) else (key,):
            if isinstance(msgid, str):
                found |= catalogue_words(msgid.split("\x04")[-1])
    return frozenset(found - SLOVAK_TOO)


def english_words_in(nodes: list[str], english: set[str], allowed: set[str]) -> list[str]:
    """Slovak nodes holding a word of the English catalogue."""
    allowed = {word.lower() for word in allowed}
    return sorted({node for node in nodes if (catalogue_words(node) & english) - allowed})


def test_english_words_in_finds_english_mixed_into_slovak():
    english = {"sit", "out", "table"}
    nodes = ["Nehrá (sit out)", "Nehrá", "Stôl 3", "Table 3", "Ján Table"]
    assert english_words_in(nodes, english, {"Ján", "Table"}) == ["Nehrá (sit out)"]


def test_no_slovak_translation_holds_an_english_word_or_a_rule_id():
    catalog = our_catalogue()
    english = english_vocabulary()
    left = []
    for key, msgstr in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not isinstance(msgid, str) or not msgid or msgid == msgstr:
            continue  # the catalogue's header, and the game's words kept as themselves
        found = sorted(catalogue_words(msgstr) & english)
        if found or RULE_ID.search(msgstr):
            left.append(f"{msgstr!r}: {', '.join(found)}")
    assert left == [], "English or rule IDs in Slovak translations:\n" + "\n".join(sorted(left))


def test_no_english_message_pastes_a_rule_id():
    catalog = our_catalogue()
    pasted = [key for key, _msgstr in catalog.items() if isinstance(key, str) and RULE_ID.search(key)]
    assert pasted == [], "Link the rule instead (cardroom/refusals.py): " + repr(pasted)


@functools.cache
def translated_as_themselves() -> frozenset[str]:
    """Messages the Slovak catalogue translates as themselves: the game's own words that Slovak
    players and dealers use in English (Flop, Rake, Rebuy, ICM...). A translator's decision,
    made in the catalogue where a reviewer sees it, not an omission."""
    catalog = trans_real.translation("sk")._catalog
    return frozenset(msgid for msgid, msgstr in catalog.items() if isinstance(msgid, str) and msgid == msgstr)


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
def test_page_shows_no_english_no_rule_id_and_slovak_numbers_in_slovak(client, room, name):
    """Both checks of a page's Slovak rendering, read once: no English left and no rule ID, and
    money and chips written the Slovak way."""
    names = {word for name in room.names() for word in words(name)}
    allowed = ALLOWED_WORDS | names | set(words(venue_get().name))
    english = render(client, room, name, "en")
    slovak = render(client, room, name, "sk")
    left = english_left(english, slovak, allowed, translated_as_themselves())
    left += english_words_in(slovak, english_vocabulary(), allowed)
    left += [node for node in slovak if RULE_ID.search(node)]
    found = sorted({node for node in slovak if ENGLISH_NUMBER.search(node)})
    assert (left, found) == ([], []), (
        "English or rule IDs on the Slovak page:\n"
        + "\n".join(f"  [{node}]" for node in left)
        + "\nEnglish numbers on the Slovak page:\n"
        + "\n".join(f"  [{node}]" for node in found)
    )
