"""The rule book as a page (/rules/) and a refusal's link to it: the message is words, the rule
is a link labelled with its title, never a code pasted into the sentence."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.template import Context, Template
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.house_rules import BOOKS, RULE_ID, parse, rule_book, rule_title, rule_url
from cardroom.refusals import RULE_TAG, form_errors, message_rule, refusal
from tests.pages.walker import text_nodes

ROOT = Path(settings.BASE_DIR)
APPS = ["cage", "cardroom", "cashgame", "cashier", "chips", "dealers", "devices", "screens"]
APPS += ["leagues", "loyalty", "notices", "players", "poker", "reports", "tournaments"]
RULE_NAMED = re.compile(r"""rule=["']([A-Z]{3}-\d+)["']|_refuse\([^)]*["']([A-Z]{3}-\d+)["']""")


def ids(language: str) -> list[str]:
    return [rule.id for group in rule_book(language) for rule in group.rules]


def test_the_slovak_book_has_the_english_books_rules_in_its_order():
    assert len(ids("en")) >= 58
    assert ids("sk") == ids("en"), "Translate each new or moved rule into docs/house-rules.sk.md"
    assert [len(group.rules) for group in rule_book("sk")] == [len(group.rules) for group in rule_book("en")]


def test_every_rule_the_code_names_is_in_the_book():
    named = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for match in RULE_NAMED.finditer(path.read_text(encoding="utf-8")):
                named.add(match.group(1) or match.group(2))
    assert len(named) > 30
    assert sorted(named - set(ids("en"))) == []


def test_the_book_drops_the_developers_notes_and_links_rules_it_names():
    groups = parse(
        "## Cash games (CSH)\n\n### CSH-5 · Staying in the game\nAt least one big blind (see CSH-6).\n\n"
        "Where: `cashgame/services/sessions/money.py`.\n\n### CSH-6 · Missed blinds\nPost them.\n"
    )
    assert [group.title for group in groups] == ["Cash games"]
    rule = groups[0].rules[0]
    assert (rule.id, rule.title) == ("CSH-5", "Staying in the game")
    assert "Where" not in rule.html and "money.py" not in rule.html
    assert '<a class="rule-ref" href="#CSH-6" translate="no">CSH-6</a>' in rule.html


def test_a_rule_is_named_by_its_title_in_the_readers_language():
    assert rule_title("CSH-5", "en") == "Staying in the game and topping up"
    assert rule_title("CSH-5", "sk") == "Zotrvanie v hre a doplnenie"
    assert rule_title("XYZ-1", "en") == ""
    assert rule_url("CSH-5") == "/rules/#CSH-5"
    assert set(BOOKS) == {code for code, _name in settings.LANGUAGES}


@pytest.mark.parametrize("language", ["en", "sk"])
@pytest.mark.django_db
def test_the_rule_book_page_has_every_rule_at_its_anchor_and_no_code_in_its_words(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get("/rules/").content.decode()
    for rule_id in ids("en"):
        assert f'id="{rule_id}"' in page
    # The IDs are the book's numbering, marked as such; the words around them hold none.
    assert [node for node in text_nodes(page) if RULE_ID.search(node)] == []
    assert "Where:" not in page and ".py" not in page


def render(template: str, **context) -> str:
    return Template("{% load cardroom %}" + template).render(Context(context))


def test_a_refusal_reads_as_words_with_its_rule_as_a_link():
    error = DomainError("top_up_too_small", "Top-up needs at least 100.00 EUR on the table.", rule="CSH-5")
    assert str(error) == "Top-up needs at least 100.00 EUR on the table."
    with translation.override("en"):
        html = render("{{ error.message }}{% rule_link error.rule %}", error=error)
    assert html == (
        'Top-up needs at least 100.00 EUR on the table. <a class="rule-link" href="/rules/#CSH-5">'
        "House rule: Staying in the game and topping up</a>"
    )
    with translation.override("sk"):
        assert "Pravidlo herne: Zotrvanie v hre a doplnenie</a>" in render("{% rule_link 'CSH-5' %}")
    assert render("{% rule_link '' %}") == render("{% rule_link 'XYZ-9' %}") == ""


def test_a_form_error_and_a_message_keep_their_rule():
    from django import forms

    form = forms.Form(data={})
    form.is_valid()
    form.add_error(None, refusal(DomainError("no", "Not now.", rule="TRN-8")))
    form.add_error(None, "Plain.")
    assert form_errors(form.non_field_errors()) == [("Not now.", "TRN-8"), ("Plain.", "")]
    message = Message(constants.ERROR, "Not now.", extra_tags=f"{RULE_TAG}TRN-8")
    assert message_rule(message) == "TRN-8"
    assert message_rule(Message(constants.ERROR, "Plain.")) == ""
