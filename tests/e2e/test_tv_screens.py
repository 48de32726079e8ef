"""The TV clock on the room's screens (TRN-8) in a real browser: digits a fifth of a 1080p
screen's height or more, landscape, portrait and phone layouts with nothing off the screen,
counting on when the network drops and back in step when it returns, sounds at a level change
and at a break, and a finished tournament's results and deal. Screenshots go to test-artifacts/."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.conftest import screenshot
from tests.tournaments import conftest as tournament_fixtures
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.tv_setup import finished_with_deal
from tournaments.services.clock import clock_add_time, clock_start
from tournaments.services.registration import tournament_start

# The tournament tests' fixtures: the cashier's shift, registration and tournaments with levels.
make_tournament, register, shift = (
    tournament_fixtures.make_tournament,
    tournament_fixtures.register,
    tournament_fixtures.shift,
)
pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LEVELS = [(100, 200, 1200), (150, 300, 1200), ("break", 600, "Colour up the 25 chips"), (200, 400, 1200)]

# Every element's box and every text's own box (a clipped digit overflows its element) inside
# the viewport; the page does not scroll sideways.
OFF_SCREEN = """() => {
  const w = window.innerWidth, h = window.innerHeight, out = [];
  const inside = (r) => r.width === 0 ||
    (r.left >= -0.5 && r.top >= -0.5 && r.right <= w + 0.5 && r.bottom <= h + 0.5);
  for (const el of document.querySelectorAll('main *')) {
    if (el.hidden || getComputedStyle(el).display === 'none') continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    for (const r of [el.getBoundingClientRect(), range.getBoundingClientRect()]) {
      if (!inside(r)) out.push((el.dataset.field || el.className || el.tagName) + ' ' + JSON.stringify(r));
    }
  }
  if (document.documentElement.scrollWidth > w) out.push('page scrolls sideways');
  return out;
}"""


def tv_page(browser, width: int, height: int, locale: str = "en-GB"):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


@pytest.fixture
def running(floor, register):
    """A late-registration tournament running for five minutes, 20 players bought in at 90.00 EUR
    of prize money each, a long name."""
    tournament = TournamentFactory(
        name="Sunday Bounty 80+20+20",
        levels=LEVELS,
        late_registration_level=2,
        guarantee_mode="conditional",
        guarantee_cents=100_000,
    )
    for _ in range(20):
        register(tournament, now=timezone.now())
    tournament_start(
        actor=floor, tournament=tournament, now=timezone.now() - timedelta(minutes=5), rng=random.Random(1)
    )
    return tournament


def shown_time(page) -> str:
    return page.inner_text("[data-field=time]")


def seconds(text: str) -> int:
    parts = [int(part) for part in text.split(":")]
    return parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) == 3 else 0)


def test_tv_digits_are_a_fifth_of_a_1080p_screen_or_more__TRN_8(browser, live_server, running):
    context, page = tv_page(browser, 1920, 1080)
    try:
        page.goto(f"{live_server.url}/tv/{running.pk}/")
        page.wait_for_function("() => document.querySelector('[data-field=time]').textContent.includes(':')")
        box = page.locator("[data-field=time]").bounding_box()
        # The ink of the digits, not only the line box: the font's own measure of "0123456789".
        ink = page.evaluate("""() => {
            const el = document.querySelector('[data-field=time]');
            const ctx = document.createElement('canvas').getContext('2d');
            const style = getComputedStyle(el);
            ctx.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
            const m = ctx.measureText('0123456789');
            return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
        }""")
        assert box["height"] >= 0.2 * 1080, box
        assert ink >= 0.2 * 1080, ink
        assert page.evaluate(OFF_SCREEN) == []
        late = page.inner_text("[data-field=late_reg]")
        # Level 2 ends 40 minutes after the start, 5 minutes ago: about 35:00 left.
        assert 34 * 60 + 50 <= seconds(late) <= 35 * 60, late
        assert page.inner_text("[data-field=players_left]") == "20"
        assert page.inner_text("[data-field=average_stack]") == "20,000"
        assert page.inner_text("[data-field=next]") == "150 / 300"
        assert page.inner_text("[data-field=prize_pool]") == "1,800.00 EUR"
        screenshot(page, "tv-clock-landscape-1920x1080")
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height", "name"), [(1080, 1920, "portrait"), (390, 844, "phone")])
def test_tv_portrait_and_phone_layouts_keep_everything_on_screen__TRN_8(
    browser, live_server, running, width, height, name
):
    context, page = tv_page(browser, width, height)
    try:
        page.goto(f"{live_server.url}/tv/{running.pk}/")
        page.wait_for_function("() => document.querySelector('[data-field=time]').textContent.includes(':')")
        assert page.evaluate(OFF_SCREEN) == []
        box = page.locator("[data-field=time]").bounding_box()
        assert box["height"] >= 0.1 * width  # still the largest thing on the screen
        screenshot(page, f"tv-clock-{name}-{width}x{height}")
    finally:
        context.close()


def test_tv_counts_on_offline_and_resyncs_when_back__TRN_8(browser, live_server, running, floor):
    context, page = tv_page(browser, 1920, 1080)
    try:
        page.goto(f"{live_server.url}/tv/{running.pk}/")
        page.wait_for_function("() => document.querySelector('[data-field=time]').textContent.includes(':')")
        page.route("**/state.json*", lambda route: route.abort())
        page.wait_for_function("() => document.querySelector('[data-field=offline]').textContent !== ''")
        first = seconds(shown_time(page))
        page.wait_for_timeout(2_100)
        second = seconds(shown_time(page))
        assert 1 <= first - second <= 3  # still counting, on its own
        screenshot(page, "tv-clock-offline")
        # The floor adds a minute while the screen is cut off; back online, the screen follows.
        clock_add_time(actor=floor, tournament=running, seconds=60)
        page.unroute("**/state.json*")
        page.wait_for_function("() => document.querySelector('[data-field=offline]').textContent === ''")
        page.wait_for_timeout(300)
        after = seconds(shown_time(page))
        assert 57 <= after - second <= 60, (second, after)
    finally:
        context.close()


def test_tv_sounds_at_a_level_change_and_at_a_break__TRN_8(browser, live_server, floor):
    tournament = TournamentFactory(levels=[(25, 50, 2), (50, 100, 3), ("break", 600, ""), (100, 200, 600)])
    context, page = tv_page(browser, 1920, 1080)
    try:
        page.goto(f"{live_server.url}/tv/{tournament.pk}/")
        hint = page.locator("[data-sound-hint]")
        assert hint.is_visible()  # the browser allows sound only after a first tap
        hint.click()
        page.wait_for_function("() => window.tvSounds.length === 1")
        assert not hint.is_visible()
        clock_start(actor=floor, tournament=tournament)
        page.wait_for_function("() => window.tvSounds.length === 3", timeout=15_000)
        kinds = page.evaluate("window.tvSounds.map(s => s.kind)")
        assert kinds == ["test", "level", "break"]
        assert page.inner_text("[data-field=level_title]") == "Break"
    finally:
        context.close()


def test_tv_finished_shows_results_and_the_deal_not_last_level__TRN_10(
    browser, live_server, floor, register, make_tournament
):
    tournament, _entries = finished_with_deal(floor, register, make_tournament)
    context, page = tv_page(browser, 1920, 1080)
    try:
        page.goto(f"{live_server.url}/tv/{tournament.pk}/")
        page.wait_for_selector("[data-results] li")
        body = page.inner_text("body")
        assert "Last level" not in body and "225.00" not in body  # the payouts before the deal
        rows = page.locator("[data-results] li").all_inner_texts()
        assert [" ".join(row.split()) for row in rows] == [
            "1–3 Nits K. 270.00 EUR",
            "1–3 Nits M. 112.50 EUR",
            "1–3 Eva K. 67.50 EUR",
            "4. Ivana Š.",
            "5. Shark",
        ]
        assert page.inner_text("[data-field=deal_total]") == "3 players shared 450.00 EUR"
        assert page.evaluate(OFF_SCREEN) == []
        screenshot(page, "tv-clock-finished-with-deal-1920x1080")
    finally:
        context.close()


def test_tv_in_slovak_stays_slovak_after_its_polls__TRN_8(browser, live_server, running):
    context, page = tv_page(browser, 1920, 1080, locale="en-GB")  # an English browser
    try:
        page.goto(f"{live_server.url}/tv/{running.pk}/?lang=sk")
        with page.expect_response(lambda response: "state.json" in response.url) as polled:
            pass
        assert "lang=sk" in polled.value.url
        page.wait_for_timeout(1_500)
        assert page.inner_text("[data-field=status_label]").lower() == "prebieha"
        assert page.inner_text("[data-field=level_title]") == "Úroveň 1"
        assert page.inner_text("[data-field=prize_pool]") == "1\xa0800,00 EUR"
    finally:
        context.close()
