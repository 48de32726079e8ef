"""No rule IDs or code names in a page's text: headings, labels and help speak the room's
language. Rule IDs stay in error details (answers to a POST, not walked here) and in the audit
trail, where they are shown as code (<code> is not page text: tests/pages/walker.py)."""

import re

import pytest

from tests.pages.walker import PAGES, open_as, page_url, text_nodes

RULE_ID = re.compile(r"\b(?!UTF-)[A-Z]{3}-\d+\b")
# Words of the code, not of the room; a JSON object's opening.
CODE_WORDS = re.compile(r"idempoten|\bcents\b|_cents\b|\{\"", re.IGNORECASE)


def code_words(nodes: list[str]) -> list[str]:
    return sorted({node for node in nodes if RULE_ID.search(node) or CODE_WORDS.search(node)})


def test_code_words_finds_rule_ids_keys_and_json():
    nodes = ["Top-up (CSH-5)", "Idempotency key", "Amount (EUR)", '{"a": 1}', "prize_cents", "Table 1"]
    assert code_words(nodes) == ["Idempotency key", "Top-up (CSH-5)", "prize_cents", '{"a": 1}']


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_text_has_no_rule_ids_or_code_names(client, room, name):
    open_as(client, name, room)
    response = client.get(page_url(name, room))
    assert response.status_code == 200
    found = code_words(text_nodes(response.content.decode()))
    assert found == [], "Code words on the page:\n" + "\n".join(f"  [{node}]" for node in found)
