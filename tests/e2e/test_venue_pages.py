"""A second venue's public pages in the browser (VEN-1): at /v/two/ the room page names Casino Two
and lists its games and tournaments only; its join link, the join page and the waiting board stay
at /v/two/, and the board's QR code is venue two's. Screenshots go to test-artifacts/venues/."""

import pytest
from django.utils import timezone

from cardroom.models import Venue
from cardroom.roles import Role
from cardroom.services import staff_role_grant
from cardroom.venues import venue_activate
from cashgame.services.waiting import waiting_add
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD, make_staff
from tests.e2e.conftest import ARTIFACTS, log_in
from tests.factories import PlayerFactory
from tests.pages.room import build_room
from tests.tournaments.factories import TournamentFactory

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "venues"
SIZES = [(390, 844), (1920, 1080)]


def test_a_phone_at_the_second_venues_address_sees_that_venue_only_VEN_1(browser, live_server):
    build_room()  # venue one: NLHE 1/2 and 2/5, its tournaments
    two = Venue.objects.create(name="Casino Two", slug="two")
    floor = make_staff("floor-two")
    staff_role_grant(user=floor, role=Role.FLOOR.value, venue=two)
    with venue_activate(two):
        omaha = make_game(name="PLO 2/5", small=200, big=500, min_buy_in=20_000, max_buy_in=100_000)
        make_table(omaha, 7)
        waiting_add(actor=floor, game=omaha, player=PlayerFactory(first_name="Boris", last_name="Novak"))
        TournamentFactory(name="Two Turbo", start_at=timezone.now(), levels=[(100, 200, 900)])
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{live_server.url}/v/two/room/")
        assert page.locator(".lobby-brand").inner_text() == "Casino Two"
        assert page.title() == "Casino Two · Games and tournaments"
        assert page.locator("#games-now ~ article h3").all_inner_texts() == ["PLO 2/5"]
        assert page.locator("#tournaments-today ~ article h3").all_inner_texts() == ["Two Turbo"]
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(SHOTS / f"room-two-{width}x{height}.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_role("link", name="Join a waiting list").tap()
        page.wait_for_url(f"{live_server.url}/v/two/wait/?lang=en")
        assert page.locator(".phone-venue").inner_text() == "Casino Two"
        assert page.locator(".game-name").all_inner_texts() == ["PLO 2/5"]
        page.screenshot(path=str(SHOTS / "join-two-390x844.png"), full_page=True)
        page.goto(f"{live_server.url}/v/two/board/")
        page.set_viewport_size({"width": 1920, "height": 1080})
        qr = page.locator("img[src='/v/two/room/qr.svg']")
        assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
        assert page.locator(".board-game h2").all_inner_texts() == ["PLO 2/5"]
        assert page.locator(".board-venue").inner_text() == "Casino Two"
        page.screenshot(path=str(SHOTS / "board-two-1920x1080.png"))
        # The manager of venue two sees where its public pages are, on its settings page.
        staff_role_grant(user=floor, role=Role.MANAGER.value, venue=two)
        page.set_viewport_size({"width": 1280, "height": 900})
        log_in(page, live_server, "floor-two", PASSWORD)
        page.goto(f"{live_server.url}/v/two/venue/")
        assert page.locator(".venue-addresses li").all_inner_texts() == [f"{live_server.url}/v/two/room/"]
        assert page.locator("#id_slug").input_value() == "two"
        page.screenshot(path=str(SHOTS / "venue-settings-two-1280.png"), full_page=True)
    finally:
        context.close()
