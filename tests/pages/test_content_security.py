"""Every page carries the Content-Security-Policy (django-csp, cardroom/settings.py), and no page
needs what it forbids: no inline <script> (json_script's application/json is data), no on*
attribute, no javascript: address, no <style> element, and htmx set up without eval. Whether a
browser finds nothing to refuse, and the TV clock and the polls still run, is
tests/e2e/test_content_security.py."""

from html.parser import HTMLParser

import pytest
from django.test import override_settings

from tests.pages.walker import PAGES, open_as, page_url

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "style-src-elem": "'self'",
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
HTMX_CONFIG = '{"allowEval": false, "includeIndicatorStyles": false}'


def policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    directives = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return dict(directives)


class _Inline(HTMLParser):
    """What the policy would refuse, one line each; and whether the page uses htmx."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refused: list[str] = []
        self.uses_htmx = False
        self.htmx_config = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "script" and not values.get("src") and values.get("type") != "application/json":
            self.refused.append(f"inline <script> {values}")
        if tag == "style":
            self.refused.append("<style> element")
        if tag == "meta" and values.get("name") == "htmx-config":
            self.htmx_config = values.get("content")
        for name, value in attrs:
            if name.startswith("on"):
                self.refused.append(f"<{tag} {name}={value!r}>")
            if name.startswith(("hx-on", "data-hx-on")):
                self.refused.append(f"<{tag} {name}>: htmx would eval it")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.refused.append(f"<{tag} {name}={value!r}>")
            if name == "hx-trigger" and "[" in (value or ""):
                self.refused.append(f"<{tag} hx-trigger={value!r}>: a filter is eval")
            if name.startswith("hx-"):
                self.uses_htmx = True


def inline(html: str) -> _Inline:
    parser = _Inline()
    parser.feed(html)
    return parser


def test_the_scan_finds_what_the_policy_refuses():
    found = inline(
        '<script>alert(1)</script><script type="application/json">{}</script><style>p{}</style>'
        '<form onsubmit="return confirm(\'x\')"><a href="javascript:go()">go</a>'
        '<div hx-get="/x" hx-trigger="every 2s [ok()]" hx-on:click="x()"><p style=\'color:red\'>'
    )
    assert found.refused == [
        "inline <script> {}",
        "<style> element",
        "<form onsubmit=\"return confirm('x')\">",
        "<a href='javascript:go()'>",
        "<div hx-trigger='every 2s [ok()]'>: a filter is eval",
        "<div hx-on:click>: htmx would eval it",
    ]
    assert found.uses_htmx


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_has_the_policy_and_nothing_it_refuses(client, room, name):
    open_as(client, name, room)
    response = client.get(page_url(name, room))
    assert response.status_code == 200
    assert policy(response) == POLICY
    found = inline(response.content.decode())
    assert found.refused == [], "\n".join(found.refused)
    if found.uses_htmx:
        assert found.htmx_config == HTMX_CONFIG


@pytest.mark.django_db
def test_error_pages_have_the_policy_too(client, floor):
    client.force_login(floor)
    forbidden = client.get("/reports/")
    assert forbidden.status_code == 403
    assert policy(forbidden) == POLICY
    with override_settings(DEBUG=False):
        missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    assert policy(missing) == POLICY


@pytest.mark.django_db
def test_the_api_documentation_alone_may_load_swagger_ui_from_its_cdn(client, manager):
    client.force_login(manager)
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    directives = policy(docs)
    assert directives["script-src"] == "'self' https://cdn.jsdelivr.net"
    assert directives["style-src-elem"] == "'self' https://cdn.jsdelivr.net 'unsafe-inline'"
    assert directives["img-src"] == "'self' https://cdn.jsdelivr.net data:"
    assert "'unsafe-eval'" not in docs["Content-Security-Policy"]
    assert policy(client.get("/api/schema/")) == POLICY
