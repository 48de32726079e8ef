"""The rule book as staff and players read it: docs/house-rules.md (and its Slovak translation,
docs/house-rules.sk.md) split into groups and rules and rendered for the page at /rules/.

A refusal on a page names its rule by a link to the rule's text here (`rule_url`), labelled by
the rule's title in the reader's language (`rule_title`), never by a code pasted into the
sentence (cardroom/refusals.py). The developers' "Where:" notes stay in the Markdown files.

The files are read once per process and language; a language without its own book reads the
English one.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from markdown_it import MarkdownIt

DOCS = Path(settings.BASE_DIR) / "docs"
BOOKS = {"en": DOCS / "house-rules.md", "sk": DOCS / "house-rules.sk.md"}
RULE_ID = re.compile(r"\b(?!UTF-)[A-Z]{3}-\d+\b")
RULE_HEADING = re.compile(r"^### ([A-Z]{3}-\d+) · (.+)$")
GROUP_HEADING = re.compile(r"^## (.+)$")
# A group's codes in its heading ("Cashier (CAG) and players (PLY)"): the page reads without them.
GROUP_CODES = re.compile(r"\s*\((?:[A-Z]{3}(?:,\s*)?)+\)")
# The developers' notes: which modules carry a rule out (both books' words for it).
DEVELOPER_NOTES = ("Where:", "Kde:")
# Markdown without raw HTML: the books are text, with tables.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    html: SafeString


@dataclass(frozen=True)
class Group:
    title: str
    intro: SafeString
    rules: tuple[Rule, ...]

    @property
    def anchor(self) -> str:
        return f"group-{self.rules[0].id}"


def _language(language: str | None) -> str:
    code = (language or get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in BOOKS and BOOKS[code].exists() else "en"


def _blocks(lines: list[str]) -> str:
    """A rule's Markdown without the developers' notes (a paragraph that starts "Where:")."""
    blocks, current = [], []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line)
            continue
        if current and not current[0].startswith(DEVELOPER_NOTES):
            blocks.append("\n".join(current))
        current = []
    return "\n\n".join(blocks)


def _link_mentions(html: str) -> str:
    """Another rule named in a rule's text becomes a link to it. The ID is the book's own
    numbering, shown as a reference (translate="no"), as a section number would be."""

    def link(match: re.Match) -> str:
        return str(format_html('<a class="rule-ref" href="#{0}" translate="no">{0}</a>', match.group(0)))

    # Text between tags only: an ID inside an attribute stays as it is.
    parts = re.split(r"(<[^>]+>)", html)
    return "".join(part if part.startswith("<") else RULE_ID.sub(link, part) for part in parts)


def _render(lines: list[str]) -> SafeString:
    # The books are the repository's own files, rendered without raw HTML.
    return mark_safe(_link_mentions(_MARKDOWN.render(_blocks(lines))))  # noqa: S308


def parse(text: str) -> tuple[Group, ...]:
    """The groups of rules of a book: a "## " heading with "### XXX-n · Title" rules under it.
    Sections without rules (how to read the book, its sources) are not part of the page."""
    groups: list[Group] = []
    group_title, intro, rules = "", [], []
    rule_id = rule_title = ""
    body: list[str] = []

    def close_rule():
        if rule_id:
            rules.append(Rule(rule_id, rule_title, _render(body)))

    def close_group():
        close_rule()
        if group_title and rules:
            groups.append(Group(group_title, _render(intro), tuple(rules)))

    for line in text.splitlines():
        if line.strip() == "---":
            continue
        rule = RULE_HEADING.match(line)
        group = GROUP_HEADING.match(line)
        if rule:
            close_rule()
            rule_id, rule_title, body = rule.group(1), rule.group(2).strip(), []
        elif group:
            close_group()
            group_title, intro, rules, rule_id, body = (
                GROUP_CODES.sub("", group.group(1)).strip(),
                [],
                [],
                "",
                [],
            )
        elif rule_id:
            body.append(line)
        elif group_title:
            intro.append(line)
    close_group()
    return tuple(groups)


def rule_book(language: str | None = None) -> tuple[Group, ...]:
    """The rule book in `language` (the active one when None), read once per process."""
    return _book(_language(language))


@functools.cache
def _book(code: str) -> tuple[Group, ...]:
    return parse(BOOKS[code].read_text(encoding="utf-8"))


@functools.cache
def _titles(code: str) -> dict[str, str]:
    return {rule.id: rule.title for group in _book(code) for rule in group.rules}


def rule_title(rule_id: str, language: str | None = None) -> str:
    """The rule's title in words ("Staying in the game and topping up"); "" for no such rule."""
    return _titles(_language(language)).get(rule_id) or _titles("en").get(rule_id, "")


def rule_url(rule_id: str) -> str:
    """The address of the rule's text in the rule book."""
    return f"{reverse('rules')}#{rule_id}"
