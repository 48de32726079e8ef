"""Every page of the site, for the tests that walk them all: which named routes are pages, whom
each is shown to, the address of each one in the room of tests/pages/room.py, and the text a
person reads on it.

A new named GET route must be added to PAGES (or, if it is not a page a person reads, to
NOT_PAGES with the reason): tests/pages/test_page_routes.py fails until it is, so no new page
escapes the Slovak check, the accessibility check or the screenshots.
"""

import re
from collections.abc import Callable
from html.parser import HTMLParser

from django.core import signing
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cardroom.roles import Role
from cardroom.selectors import venue_get
from cardroom.venues import SESSION_VENUE
from loyalty.selectors import player_link_token
from tests.pages.room import OPERATOR, Room

# Parts of the URLconf that are not the room's pages: the JSON API (tested by tests/security's
# fuzzer and each app's API tests), Django's admin site (translated by Django), the language
# switch (a POST).
OUTSIDE = ("api/", "admin/", "i18n/")

# Named GET routes that answer something other than a page for a person to read.
NOT_PAGES = {
    "tv:state": "the TV clock's JSON state, read by static/js/clock.js",
    "tournaments:structure-export": "a CSV or JSON file download",
    "board:rows": "the waiting board's htmx fragment, inside board:board",
    "wait:rows": "a player's status rows, the htmx fragment polled inside wait:status",
    "lobby:live": "the public room page's htmx fragment, polled inside lobby:room",
    "lobby:qr": "the room page's QR code, an SVG image shown by tv:clock and board:board",
    "cashier:player-pick": "the desk's htmx search results, inside cashier:desk",
    "cashgame:table-live": "the cash table's htmx fragment, polled inside cashgame:table",
    "floor:live": "the floor view's htmx fragment, polled inside floor:room",
    "dealers:live": "the dealer board's htmx fragment, polled inside dealers:board",
    "devices:tablet-seats": "the dealer tablet's htmx fragment, polled inside devices:tablet",
    "players:export": "a player's data as a JSON file, a ZIP of CSV files or an XLSX workbook (GDP-1)",
    "leagues:csv": "a league's standings as a CSV file download",
    "leagues:xlsx": "a league's standings as an XLSX file download",
    "reports:daily-pdf": "the daily report as a PDF file download (cardroom.pdf)",
    "reports:shift-pdf": "a shift's close as a PDF file download (cardroom.pdf)",
    "cashier:receipt-pdf": "a receipt as a PDF file download (cardroom.pdf)",
    "cashier:chip-slip-pdf": "a fill or credit slip as a PDF file download (cardroom.pdf)",
    "lobby:leagues": "the public room page's leagues, an htmx fragment inside lobby:room",
    "tv:promotions-rows": "the TV promotions screen's htmx fragment, polled inside tv:promotions",
    "notices:service-worker": "the notices' service worker, a script registered by static/js/notices.js",
}

# The dealer tablet: not a person's log-in but a paired device (devices.middleware), opened
# with the device cookie of the tablet the room pairs to table 1.
TABLET = "tablet"

# name -> (who looks at it, the URL's arguments in the room). None: anonymous.
PAGES: dict[str, tuple[Role | str | None, Callable[[Room], dict]]] = {
    "login": (None, lambda room: {}),
    "home": (Role.MANAGER, lambda room: {}),
    "venue-pick": (Role.MANAGER, lambda room: {}),
    "venue-settings": (Role.MANAGER, lambda room: {}),
    "audit-list": (Role.MANAGER, lambda room: {}),
    "rules": (None, lambda room: {}),
    "players:list": (Role.CASHIER, lambda room: {}),
    "players:create": (Role.CASHIER, lambda room: {}),
    "players:detail": (Role.CASHIER, lambda room: {"pk": room.objects["player"].pk}),
    "players:update": (Role.CASHIER, lambda room: {"pk": room.objects["player"].pk}),
    "players:erase": (Role.MANAGER, lambda room: {"pk": room.objects["player"].pk}),
    "players:identity": (Role.MANAGER, lambda room: {"pk": room.objects["player"].pk}),
    "tournaments:list": (Role.FLOOR, lambda room: {}),
    "tournaments:create": (Role.MANAGER, lambda room: {}),
    "tournaments:cashier-list": (Role.CASHIER, lambda room: {}),
    "tournaments:detail": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:entries": (Role.FLOOR, lambda room: {"pk": room.objects["upcoming"].pk}),
    "tournaments:register": (Role.CASHIER, lambda room: {"pk": room.objects["upcoming"].pk}),
    "tournaments:seating": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:bust": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:payouts": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:tickets": (Role.MANAGER, lambda room: {"pk": room.objects["upcoming"].pk}),
    "tournaments:structure-list": (Role.MANAGER, lambda room: {}),
    "tournaments:structure-import": (Role.MANAGER, lambda room: {}),
    "tournaments:structure-detail": (Role.MANAGER, lambda room: {"pk": room.objects["structure"].pk}),
    "tv:clock": (None, lambda room: {"pk": room.objects["tournament"].pk}),
    "cashier:desk": (Role.CASHIER, lambda room: {}),
    "cashier:reversals": (Role.MANAGER, lambda room: {}),
    "cashier:shifts": (Role.MANAGER, lambda room: {}),
    "cashier:shift-open": (Role.CASHIER, lambda room: {}),
    "cashier:shift-detail": (Role.CASHIER, lambda room: {"pk": room.objects["shift"].pk}),
    "cashier:shift-close": (Role.CASHIER, lambda room: {"pk": room.objects["shift"].pk}),
    "cashier:receipt": (Role.CASHIER, lambda room: {"pk": room.objects["receipt"].pk}),
    "reports:daily": (Role.MANAGER, lambda room: {}),
    "reports:operator": (OPERATOR, lambda room: {}),
    "reports:operator-range": (OPERATOR, lambda room: {}),
    "reports:range": (Role.MANAGER, lambda room: {}),
    "reports:players": (Role.MANAGER, lambda room: {}),
    "reports:aml": (Role.MANAGER, lambda room: {}),
    "cashgame:tables": (Role.FLOOR, lambda room: {}),
    "cashgame:table-create": (Role.MANAGER, lambda room: {}),
    "cashgame:table": (Role.FLOOR, lambda room: {"pk": room.objects["table1"].pk}),
    "cashgame:dealer": (Role.FLOOR, lambda room: {"pk": room.objects["table1"].pk}),
    "cashgame:games": (Role.MANAGER, lambda room: {}),
    "cashgame:game-create": (Role.MANAGER, lambda room: {}),
    "cashgame:game-edit": (Role.MANAGER, lambda room: {"pk": room.objects["game12"].pk}),
    "cashgame:cashier": (Role.CASHIER, lambda room: {}),
    "cashgame:drop-counts": (Role.MANAGER, lambda room: {}),
    "cashgame:jackpot": (Role.MANAGER, lambda room: {}),
    "cashgame:high-hand": (Role.FLOOR, lambda room: {}),
    "cashgame:promotions": (Role.MANAGER, lambda room: {}),
    "cashgame:promotion-create": (Role.MANAGER, lambda room: {}),
    "cashgame:promotion-edit": (Role.MANAGER, lambda room: {"pk": room.objects["promotion"].pk}),
    "tv:promotions": (None, lambda room: {}),
    "cashgame:waiting": (Role.FLOOR, lambda room: {}),
    "cashgame:waiting-history": (Role.FLOOR, lambda room: {"pk": room.objects["wait_entry"].pk}),
    "cashgame:rulings": (Role.FLOOR, lambda room: {}),
    "cashgame:calculators": (Role.FLOOR, lambda room: {}),
    "board:board": (None, lambda room: {}),
    "wait:join": (None, lambda room: {}),
    "wait:status": (None, lambda room: {"token": room.objects["wait_token"]}),
    "lobby:room": (None, lambda room: {}),
    "lobby:tournament": (None, lambda room: {"pk": room.objects["tournament"].pk}),
    "cashgame:seat-panel": (Role.FLOOR, lambda room: {"pk": room.objects["table1"].pk, "seat": 1}),
    "floor:room": (Role.FLOOR, lambda room: {}),
    "dealers:board": (Role.FLOOR, lambda room: {}),
    "tournaments:levels": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:payout-table": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:structure-new": (Role.MANAGER, lambda room: {}),
    "tournaments:structure-edit": (Role.MANAGER, lambda room: {"pk": room.objects["structure"].pk}),
    "devices:list": (Role.MANAGER, lambda room: {}),
    "devices:pair": (None, lambda room: {}),
    "devices:tablet": (TABLET, lambda room: {}),
    "tournaments:colour-up": (Role.FLOOR, lambda room: {"pk": room.objects["tournament"].pk}),
    "tournaments:table-counts": (
        Role.FLOOR,
        lambda room: {
            "pk": room.objects["tournament"].pk,
            "table_id": room.objects["tournament"].tables.order_by("number").first().pk,
        },
    ),
    "tournaments:bags": (Role.FLOOR, lambda room: {"pk": room.objects["flight"].pk}),
    "tournaments:event": (Role.FLOOR, lambda room: {"pk": room.objects["event"].pk}),
    "tournaments:event-seats": (Role.FLOOR, lambda room: {"pk": room.objects["event"].pk}),
    "tournaments:event-list": (Role.MANAGER, lambda room: {}),
    "tv:event-seats": (None, lambda room: {"pk": room.objects["event"].pk}),
    "cashier:chips": (Role.CASHIER, lambda room: {}),
    "cashier:chip-slip-new": (Role.CASHIER, lambda room: {"set_id": room.objects["cash_chips"].pk}),
    "cashier:chip-move": (Role.CASHIER, lambda room: {"set_id": room.objects["cash_chips"].pk}),
    "cashier:chip-count-new": (Role.CASHIER, lambda room: {"set_id": room.objects["cash_chips"].pk}),
    "cashier:chip-slip": (Role.CASHIER, lambda room: {"pk": room.objects["chip_slip"].pk}),
    "cashier:chip-count": (Role.CASHIER, lambda room: {"pk": room.objects["chip_count"].pk}),
    "leagues:list": (Role.MANAGER, lambda room: {}),
    "leagues:create": (Role.MANAGER, lambda room: {}),
    "leagues:detail": (Role.MANAGER, lambda room: {"pk": room.objects["league"].pk}),
    "leagues:edit": (Role.MANAGER, lambda room: {"pk": room.objects["league"].pk}),
    "tv:league": (None, lambda room: {"pk": room.objects["league"].pk}),
    "lobby:league": (None, lambda room: {"pk": room.objects["league"].pk}),
    "loyalty:settings": (Role.MANAGER, lambda room: {}),
    "printing:printers": (Role.MANAGER, lambda room: {}),
    "loyalty_room:me": (None, lambda room: {"token": player_link_token(player_id=room.objects["player"].pk)}),
}

# Pages a tablet shows (the floor's and the dealer's): every tap target at least 44 px.
TABLET_PAGES = {
    "cashgame:tables",
    "cashgame:table",
    "cashgame:dealer",
    "cashgame:waiting",
    "tournaments:detail",
    "tournaments:seating",
    "tournaments:bust",
    "cashgame:seat-panel",
    "floor:room",
    "dealers:board",
    "devices:tablet",
    "tournaments:colour-up",
    "tournaments:table-counts",
    "tournaments:bags",
}


def _walk(patterns, prefix="", namespace=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            yield prefix + str(pattern.pattern), name, pattern.callback


def get_routes() -> dict[str, str]:
    """Named routes that answer GET, outside the API and the admin site: name -> pattern."""
    routes = {}
    for route, name, callback in _walk(get_resolver().url_patterns):
        if route.startswith(OUTSIDE):
            continue
        view_class = getattr(callback, "view_class", None)
        if view_class is not None:
            answers_get = hasattr(view_class, "get") and "get" in view_class.http_method_names
        else:  # a function view: Django's decorators say which methods it takes
            answers_get = True
        if answers_get:
            routes[name] = route
    return routes


def page_url(name: str, room: Room) -> str:
    return reverse(name, kwargs=PAGES[name][1](room))


def page_user(name: str, room: Room):
    """The staff member who opens the page; None for a public page and for the tablet's."""
    role = PAGES[name][0]
    return None if role is None or role == TABLET else room.staff[role]


def tablet_cookie(room: Room) -> tuple[str, str]:
    """The paired tablet's cookie (name, signed value), as the pairing page sets it."""
    from devices.middleware import COOKIE, COOKIE_SALT

    # HttpResponse.set_signed_cookie signs with the cookie's name and the salt together.
    return COOKIE, signing.get_cookie_signer(salt=COOKIE + COOKIE_SALT).sign(room.tablet_token)


def open_as(client, name: str, room: Room) -> None:
    """Make the test client whoever opens the page: a staff member, nobody, or the tablet."""
    client.logout()
    cookie_name, cookie_value = tablet_cookie(room)
    client.cookies.pop(cookie_name, None)
    user = page_user(name, room)
    if user is not None:
        client.force_login(user)
    if PAGES[name][0] == OPERATOR:
        session = client.session
        session[SESSION_VENUE] = venue_get().pk  # he works in the first venue tonight
        session.save()
    if PAGES[name][0] == TABLET:
        client.cookies[cookie_name] = cookie_value


# Elements whose text a person does not read as words of the page's language; and any element
# marked translate="no" (HTML's own mark for text not in the page's language: what staff typed,
# a record's description as stored at the time).
SKIP_ELEMENTS = {"script", "style", "code", "template", "noscript", "svg"}
# Attributes a person reads or hears (a screen reader speaks the aria-label and the title).
READ_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")
VOID_ELEMENTS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _TextNodes(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for attribute in READ_ATTRIBUTES:
            if values.get(attribute):
                self.nodes.append(values[attribute])
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self.nodes.append(values["value"])
        if tag not in VOID_ELEMENTS:
            skip = tag in SKIP_ELEMENTS or values.get("translate") == "no"
            self._stack.append((tag, skip))

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _skip in self._stack):
            while self._stack and self._stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if any(skip for _tag, skip in self._stack):
            return
        text = " ".join(data.split())
        if text:
            self.nodes.append(text)


def text_nodes(html: str) -> list[str]:
    """The text a person reads on a page, one string per text node or read attribute."""
    parser = _TextNodes()
    parser.feed(html)
    return parser.nodes


WORD = re.compile(r"[^\W\d_]{2,}")


def words(text: str) -> list[str]:
    """Words of two letters or more (numbers, amounts and single letters are no language)."""
    return WORD.findall(text)
