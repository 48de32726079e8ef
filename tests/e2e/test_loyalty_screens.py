"""The loyalty screens in Chromium (LOY-1): the player card's points and a voucher given there,
the player's private page on a phone (390 px) in Slovak, and the settings page. Screenshots go
to test-artifacts/ for a person to look at."""

from datetime import timedelta

import pytest
from django.utils import timezone

from loyalty.models import Movement
from loyalty.selectors import player_link_token
from loyalty.services import earn_rate_set, loyalty_settings_update, points_award_due, tier_save
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.loyalty.conftest import session_played

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_player_card_phone_page_and_settings_LOY_1(desk_page, browser, live_server, cashier, manager):
    now = timezone.now()
    loyalty_settings_update(actor=manager, default_points_per_hour=10, now=now)
    tier_save(actor=manager, name="Silver", min_points=100, now=now)
    tier_save(actor=manager, name="Gold", min_points=500, now=now)
    game = make_game()
    earn_rate_set(actor=manager, game=game, points_per_hour=40, now=now)
    player = PlayerFactory(first_name="Jana", last_name="Nováková")
    session_played(player, make_table(game), now - timedelta(days=3), 275)
    session_played(player, make_table(make_game(name="PLO 1/2"), 2), now - timedelta(days=1), 190)
    points_award_due(now=now)

    page = desk_page
    log_in(page, live_server, "cashier1", PASSWORD)
    page.goto(f"{live_server.url}/players/{player.pk}/")
    # 275 min at 40 an hour (183) and 190 min at the default 10 (31): 214 points, Silver.
    assert "214" in page.inner_text("#loyalty") and "Silver" in page.inner_text("#loyalty")
    page.fill("#value", "1,50")
    page.click("#loyalty button[type=submit]:has-text('Give the comp')")
    page.wait_for_selector("text=Food and drink voucher for 150 points.")
    assert Movement.objects.get(kind="voucher").points == -150
    page.locator("#loyalty").scroll_into_view_if_needed()
    screenshot(page, "loyalty-player-card")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sk-SK", is_mobile=True)
    mine = phone.new_page()
    mine.goto(f"{live_server.url}/room/me/{player_link_token(player_id=player.pk)}/?lang=sk")
    assert "Moje body" in mine.inner_text("h1")
    assert mine.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(mine, "loyalty-phone-page")
    phone.close()

    page.context.clear_cookies()
    log_in(page, live_server, "manager1", PASSWORD)
    page.goto(f"{live_server.url}/loyalty/settings/")
    assert "Points per hour by game and stakes" in page.inner_text("main")
    screenshot(page, "loyalty-settings")
    assert books_problems() == []
