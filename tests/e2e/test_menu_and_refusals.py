"""The menu and a refusal as staff see them, in English and Slovak.

The manager's menu (the longest) and the floor's fit one row beside the brand and the tools at
1280x800, in at most seven entries, a group opening its pages in a panel inside the screen; on a
390x844 phone the menu wraps to two rows at most, opens a group across the screen's width and
never scrolls the page sideways; every entry is a 44 px target. A refused import reads in words
with its rule as a link, which leads to the rule's text in the rule book. Screenshots go to
test-artifacts/menu/.
"""

import pytest
from django.conf import settings

from cardroom.roles import Role
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_every_page import _session_cookie
from tests.pages.room import build_room

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "menu"
# The group each role opens for its screenshot, by its label in each language.
GROUPS = {
    (Role.MANAGER, "en"): "Management",
    (Role.MANAGER, "sk"): "Správa",
    (Role.FLOOR, "en"): "Cash games",
    (Role.FLOOR, "sk"): "Cash hry",
}
MENU_JS = """() => {
  const entries = [...document.querySelectorAll(".menu > li")];
  const bar = document.querySelector(".topbar").getBoundingClientRect();
  const targets = [...document.querySelectorAll(".menu > li > a, .menu summary")]
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
  return {
    entries: entries.length,
    rows: new Set(entries.map((e) => Math.round(e.getBoundingClientRect().top))).size,
    bar: Math.round(bar.height),
    small: targets.filter((r) => r.height < 43.5 || r.width < 43.5).length,
    overflow: document.documentElement.scrollWidth - innerWidth,
  };
}"""
PANEL_JS = """() => {
  const panel = document.querySelector(".menu details[open] .menu-panel").getBoundingClientRect();
  return {left: panel.left, right: panel.right, inside: panel.left >= 0 && panel.right <= innerWidth};
}"""


def _page(browser, live_server, user, language):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB", has_touch=True)
    context.add_cookies(
        [
            _session_cookie(user, live_server.url),
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.mark.parametrize("language", ["en", "sk"])
def test_the_menu_fits_one_row_at_1280_and_works_on_a_phone(browser, live_server, language):
    room = build_room()
    SHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    for role, start in ((Role.MANAGER, "/cashgame/"), (Role.FLOOR, "/floor/")):
        page = _page(browser, live_server, room.staff[role], language)
        try:
            page.goto(live_server.url + start)
            name = f"{role.lower()}-{language}"
            menu = page.evaluate(MENU_JS)
            found[f"{name} 1280"] = menu
            page.screenshot(path=str(SHOTS / f"{name}-1280x800.png"))
            assert menu["entries"] <= 7 and menu["rows"] == 1 and menu["small"] == 0, menu
            assert menu["bar"] < 70, f"the shell takes more than one row: {menu}"
            page.get_by_text(GROUPS[role, language], exact=True).click()
            assert page.evaluate(PANEL_JS)["inside"]
            page.screenshot(path=str(SHOTS / f"{name}-1280x800-open.png"))
            page.mouse.click(640, 600)  # a tap outside closes it
            assert page.locator(".menu details[open]").count() == 0

            page.set_viewport_size({"width": 390, "height": 844})
            page.reload()
            menu = page.evaluate(MENU_JS)
            found[f"{name} 390"] = menu
            page.screenshot(path=str(SHOTS / f"{name}-390x844.png"))
            assert menu["rows"] <= 2 and menu["small"] == 0 and menu["overflow"] <= 1, menu
            page.get_by_text(GROUPS[role, language], exact=True).tap()
            assert page.evaluate(PANEL_JS)["inside"]
            assert page.evaluate(MENU_JS)["overflow"] <= 1
            page.screenshot(path=str(SHOTS / f"{name}-390x844-open.png"))
            # The panel's first page opens with a tap.
            first = page.locator(".menu details[open] .menu-panel a").first
            target = first.get_attribute("href")
            first.tap()
            page.wait_for_url(live_server.url + target)
        finally:
            page.context.close()
    print(found)


@pytest.mark.parametrize("language", ["en", "sk"])
def test_a_refusal_reads_in_words_and_links_its_rule(browser, live_server, language):
    room = build_room()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _page(browser, live_server, room.staff[Role.MANAGER], language)
    try:
        page.goto(f"{live_server.url}/tournaments/structures/import/")
        page.fill("input[name=name]", "Down")
        page.set_input_files(
            "input[type=file]",
            files=[
                {
                    "name": "down.csv",
                    "mimeType": "text/csv",
                    "buffer": b"small_blind_chips,big_blind_chips,minutes\n50,100,20\n25,50,20\n",
                }
            ],
        )
        page.locator("form button[type=submit].primary").click()
        link = page.locator(".error-box a.rule-link, .messages a.rule-link").first
        title = {"en": "Blind structures", "sk": "Štruktúry blindov"}[language]
        assert link.inner_text() == {"en": "House rule: ", "sk": "Pravidlo herne: "}[language] + title
        box = page.locator(".error-box, .messages").first.inner_text()
        assert "TRN-7" not in box
        page.screenshot(path=str(SHOTS / f"refusal-{language}-1280x800.png"))
        link.click()
        page.wait_for_url(f"{live_server.url}/rules/#TRN-7")
        assert page.locator("#TRN-7").is_visible()
        assert title in page.locator("#TRN-7 h3").inner_text()
        page.screenshot(path=str(SHOTS / f"rule-{language}-1280x800.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server.url}/rules/#TRN-7")
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
        page.screenshot(path=str(SHOTS / f"rule-{language}-390x844.png"))
    finally:
        page.context.close()
