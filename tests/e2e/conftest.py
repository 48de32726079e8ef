"""Browser journeys: Playwright driving Debian's headless Chromium against a live server.

They need a live server, hence real transactions (the append-only triggers refuse SQLite's
flush), so they run in CI's PostgreSQL pass; `.ci/run` installs Chromium. Screenshots go to
test-artifacts/ for a person to look at.
"""

import os
import re
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# Chromium flags for a closed network (no background calls home) and a root user in CI.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# The Content-Security-Policy's refusals: Chromium writes them to the console ("Refused to ...",
# "... violates the following Content Security Policy directive ..."); CSP_WATCH, added to a
# context before any page script, also writes every securitypolicyviolation event there; htmx
# writes "htmx:..." errors (an eval it was not allowed).
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""
REFUSED = re.compile(r"Refused to|Content Security Policy|CSP violation|htmx:|EvalError")


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Chromium (apt-get install chromium); .ci/run installs it")
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs its own event loop; Django's async-unsafe guard must allow the
    # test thread's ORM calls around it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{live_server.url}/")


def double_tap(page, selector: str) -> None:
    """Two taps on a form's button, the second while the first's answer is still on its way
    (a slow network): the server carries out the first tap's request, then the second tap
    sends the same form again. Both reach the server; the page follows the second answer."""
    first: list = []

    def slow_first_answer(route):
        if route.request.method != "POST" or first:
            route.continue_()
            return
        # Carried out by the server now; its answer is held back from the page.
        first.append((route, route.fetch(max_redirects=0)))

    button = page.locator(selector)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.route("**/*", slow_first_answer)
    page.mouse.click(x, y)
    for _ in range(500):
        if first:
            break
        page.wait_for_timeout(20)
    assert first, "the first tap sent nothing"
    with page.expect_request(lambda r: r.method == "POST") as second:
        page.mouse.click(x, y)  # the same spot: a finger's second tap does not wait
    assert second.value.post_data == first[0][0].request.post_data  # the same form, the same key
    page.unroute("**/*")


def menu_go(page, group: str, item: str) -> None:
    """Open a page from the menu as staff do: tap the group, then the page in its panel."""
    page.click(f"nav.mainnav summary >> text={group}")
    page.click(f"nav.mainnav .menu-panel >> text={item}")
