"""Every page in a real browser, in one walk: a screenshot at 1280x800 (tablet), 1920x1080 (desk
and TV) and 390x844 (phone) under test-artifacts/screens/, axe-core's accessibility rules at
the tablet and phone sizes (no serious or critical violation), on the tablet pages every tap
target at least 44 px, no table wider than its box, which would put a column behind a sideways
scroll, and no page wider than the screens it is used on (tests/pages/walker.py names the pages;
the room is tests/pages/room.py). The 403 page a floor member gets on the manager's report is
walked too. On every page Chromium refuses nothing under the Content-Security-Policy (no "Refused
to ..." or policy violation in the console: test_content_security.py has the pages' behaviour).
Then every page again in Slovak: its visible text, the scripts' included (the clocks, the
countdowns), holds no English word and no rule ID (the checks of tests/pages/test_slovak.py, on
what the browser shows).

One test, one room, one browser: the walk is the CI budget's (under 90 s on a 2-core machine).
Problems are gathered over the whole walk and asserted together, so one run lists them all.
"""

import re
import time

import pytest
from django.conf import settings
from django.test import Client

from cardroom.roles import Role
from cardroom.selectors import venue_get
from cardroom.venues import SESSION_VENUE
from tests.e2e.conftest import ARTIFACTS, CSP_WATCH, REFUSED
from tests.pages.room import build_room
from tests.pages.test_no_code_words import RULE_ID
from tests.pages.test_slovak import ALLOWED_WORDS, english_vocabulary, english_words_in
from tests.pages.walker import PAGES, TABLET, TABLET_PAGES, page_url, page_user, tablet_cookie, words

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SCREENS = ARTIFACTS / "screens"
SIZES = [(1280, 800), (1920, 1080), (390, 844)]
# axe at the tablet and the phone size: the desk size lays pages out as the tablet does (the
# page is at most 1280 px wide), and each axe run costs about as much as a screenshot.
AXE_SIZES = {(1280, 800), (390, 844)}
FAILING_IMPACTS = {"serious", "critical"}
MIN_TARGET_PX = 44

# Tap targets on a page: what a finger can press. Links inside a sentence are exempt (WCAG 2.5.8
# lets inline links keep the line's height); hidden and disabled controls are not targets.
TAP_TARGETS_JS = """
(minimum) => {
  const small = [];
  const targets = document.querySelectorAll(
    "a[href], button, select, textarea, input:not([type=hidden]), [role=button], summary");
  for (const element of targets) {
    if (element.disabled || element.closest("p, .messages, [hidden]")) continue;
    let box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // not shown at this size
    // A tick box or a radio is tapped through its label too: the larger of the two counts.
    for (const label of element.labels || []) {
      const around = label.getBoundingClientRect();
      if (around.width * around.height > box.width * box.height) box = around;
    }
    if (getComputedStyle(element).visibility === "hidden") continue;
    // Half a pixel of tolerance: a 44 px box may measure 43.99 after sub-pixel layout.
    if (box.height + 0.5 < minimum || box.width + 0.5 < minimum) {
      const label = (element.innerText || element.value || element.name || element.id || "").trim();
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${element.tagName.toLowerCase()} "${label.slice(0, 30)}" ${size}`);
    }
  }
  return small;
}
"""


# A table wider than its scrolling box hides a column (often the amount, the last one) behind a
# sideways scroll nobody sees on a touch screen. The manager's reports and the audit trail are
# read at a desk screen (body.desk-wide): their tables must fit it, and may scroll on a tablet.
WIDE_TABLES_JS = """
() => {
  if (document.body.classList.contains("desk-wide") && window.innerWidth < 1800) return [];
  return [...document.querySelectorAll(".table-wrap")]
    .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
    .map((wrap) => {
      const heading = wrap.querySelector("th:last-child");
      const last = heading ? heading.innerText : "";
      return `${wrap.scrollWidth} px in ${wrap.clientWidth} px, last column "${last}"`;
    });
}
"""


# Pages used only on the cage's desk screens and the dealer's tablet at the table, never on a
# phone: at phone size they may scroll sideways. Every other page, the floor's included (a floor
# member may carry a phone), must fit a phone's width.
NEVER_ON_A_PHONE = {
    "cashier:desk",
    "cashier:chip-count",
    "cashier:chip-slip",
    "tournaments:register",
    "cashgame:dealer",
    "devices:tablet",
}


# The text a person sees: visible text nodes, not code, not what staff typed (translate="no").
VISIBLE_TEXT_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (!parent || parent.closest("script, style, code, noscript, template, svg, [translate=no]")) continue;
    if (!parent.checkVisibility()) continue;
    const text = walker.currentNode.textContent.replace(/\\s+/g, " ").trim();
    if (text) out.push(text);
  }
  return out;
}
"""


def _slovak_problems(page, allowed: set[str]) -> list[str]:
    nodes = page.evaluate(VISIBLE_TEXT_JS)
    found = [f"English: [{node}]" for node in english_words_in(nodes, english_vocabulary(), allowed)]
    return found + [f"rule ID: [{node}]" for node in nodes if RULE_ID.search(node)]


def _session_cookie(user, base_url: str) -> dict:
    """The browser logged in as `user` without the log-in page (it has its own journey)."""
    client = Client()
    client.force_login(user)
    session = client.session
    session[SESSION_VENUE] = venue_get().pk  # the first venue: a manager of two picks it
    session.save()
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": base_url,
    }


def _axe_problems(page) -> list[str]:
    results = page.evaluate("axe.run({resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {len(v['nodes'])}x, e.g. {v['nodes'][0]['target']}"
        for v in results["violations"]
        if v["impact"] in FAILING_IMPACTS
    ]


@pytest.mark.long
def test_every_page_at_three_sizes_is_accessible_and_photographed(browser, live_server):
    # axe-core as the PyPI wheel ships it (pinned in requirements-dev.txt); no network needed.
    axe_script = pytest.importorskip("axe_playwright_python.base").AXE_SCRIPT
    room = build_room()
    SCREENS.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    refused: list[str] = []
    contexts = {}
    started = time.monotonic()
    spent = {"open": 0.0, "screenshot": 0.0, "axe": 0.0}
    try:
        for name in sorted(PAGES):
            user = page_user(name, room)
            key = TABLET if PAGES[name][0] == TABLET else (user.pk if user is not None else None)
            if key not in contexts:
                context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
                if user is not None:
                    context.add_cookies([_session_cookie(user, live_server.url)])
                if key == TABLET:
                    cookie_name, cookie_value = tablet_cookie(room)
                    context.add_cookies(
                        [{"name": cookie_name, "value": cookie_value, "url": live_server.url}]
                    )
                # axe-core is loaded into every page the context opens, before the page's scripts.
                context.add_init_script(script=axe_script)
                context.add_init_script(script=CSP_WATCH)
                contexts[key] = context.new_page()
                contexts[key].on(
                    "console",
                    lambda message: refused.append(message.text) if REFUSED.search(message.text) else None,
                )
            page = contexts[key]
            refused.clear()
            page.set_viewport_size({"width": 1280, "height": 800})
            mark = time.monotonic()
            response = page.goto(live_server.url + page_url(name, room), wait_until="load")
            spent["open"] += time.monotonic() - mark
            if response.status != 200:
                problems[name] = [f"answered {response.status}"]
                continue
            slug = re.sub(r"[^a-z0-9]+", "-", name.lower())
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                mark = time.monotonic()
                page.screenshot(path=str(SCREENS / f"{slug}-{width}x{height}.png"), full_page=True)
                spent["screenshot"] += time.monotonic() - mark
                mark = time.monotonic()
                found = _axe_problems(page) if (width, height) in AXE_SIZES else []
                spent["axe"] += time.monotonic() - mark
                # No page scrolls sideways on the screens it is used on.
                if width >= 1280 or name not in NEVER_ON_A_PHONE:
                    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
                    if overflow > 1:
                        found.append(f"the page is {overflow} px wider than the screen: it scrolls sideways")
                if width >= 1280:
                    found += [
                        f"a table wider than its box, a column behind a sideways scroll: {wide}"
                        for wide in page.evaluate(WIDE_TABLES_JS)
                    ]
                if name in TABLET_PAGES and (width, height) == (1280, 800):
                    found += [
                        f"tap target under {MIN_TARGET_PX} px: {small}"
                        for small in page.evaluate(TAP_TARGETS_JS, MIN_TARGET_PX)
                    ]
                found += [f"refused by the Content-Security-Policy: {text}" for text in refused]
                refused.clear()
                if found:
                    problems[f"{name} @{width}x{height}"] = found
        # Every page again in Slovak, as the browser shows it.
        allowed = ALLOWED_WORDS | {word for name in room.names() for word in words(name)}
        allowed |= set(words(venue_get().name))
        mark = time.monotonic()
        for page in contexts.values():
            page.context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sk", "url": live_server.url}]
            )
            page.set_viewport_size({"width": 1280, "height": 800})
        for name in sorted(PAGES):
            user = page_user(name, room)
            key = TABLET if PAGES[name][0] == TABLET else (user.pk if user is not None else None)
            page = contexts[key]
            page.goto(live_server.url + page_url(name, room), wait_until="load")
            found = _slovak_problems(page, allowed)
            if found:
                problems[f"{name} in Slovak"] = found
        spent["Slovak"] = time.monotonic() - mark
        for page in contexts.values():
            page.context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
            )
        # The 403 page, as a floor member who opens the manager's report sees it.
        page = contexts[room.staff[Role.FLOOR].pk]
        refused.clear()
        page.set_viewport_size({"width": 1280, "height": 800})
        response = page.goto(live_server.url + page_url("reports:daily", room))
        assert response.status == 403
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(SCREENS / f"forbidden-{width}x{height}.png"), full_page=True)
            found = _axe_problems(page) if (width, height) in AXE_SIZES else []
            found += [f"refused by the Content-Security-Policy: {text}" for text in refused]
            refused.clear()
            if found:
                problems[f"403 page @{width}x{height}"] = found
    finally:
        for page in contexts.values():
            page.context.close()
    elapsed = time.monotonic() - started
    parts = ", ".join(f"{part} {seconds:.1f} s" for part, seconds in spent.items())
    print(f"walked {len(PAGES)} pages at {len(SIZES)} sizes in {elapsed:.1f} s ({parts})")
    report = "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, found in sorted(problems.items()))
    assert problems == {}, report
