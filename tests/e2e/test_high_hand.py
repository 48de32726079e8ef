"""A high hand in a real browser (LOY-2): the floor claims it from the table's floor screen by
typing the cards, and the TV's promotions screen shows it from across the room (cards drawn as
cards, the public name, table and seat, the prize and the time left). Screenshots go to
test-artifacts/."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.selectors import venue_zone
from cashgame.models import HighHandClaim
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.promotions import promotion_create
from reports.selectors.books import books_problems
from tests.cashgame import conftest as cashgame_fixtures
from tests.cashgame.conftest import make_game, make_table, seat_players
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.e2e.test_tv_screens import OFF_SCREEN

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

shift = cashgame_fixtures.shift


def test_a_claim_on_the_floor_screen_shows_on_the_tv__LOY_2(
    browser, live_server, manager, floor, cashier, shift
):
    game = make_game()
    table = make_table(game, 3)
    local = timezone.now().astimezone(venue_zone())
    start = (local - timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    promotion = promotion_create(
        actor=manager,
        games=[game],
        name="Evening high hand",
        starts_at=start.time(),
        ends_at=(start + timedelta(hours=4)).time(),
        period_minutes=240,
        prize_cents=25_000,
        both_hole_cards=True,
        min_hand=0,
        min_pot_cents=1_000,
        min_players=4,
        drop_cents=100,
        active=True,
    )
    sessions = seat_players(cashier=cashier, floor=floor, shift=shift, table=table, count=4, amount=30_000)
    sessions[2].player.nickname = "Lucky Eva"
    sessions[2].player.save(update_fields=["nickname"])
    hand = hand_start(actor=floor, table=table, seats=[1, 2, 3, 4])
    hand_flop(actor=floor, hand=hand)
    hand_end(actor=floor, hand=hand, pot_cents=22_000)

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, live_server, floor.username, PASSWORD)
        page.goto(f"{live_server.url}/cashgame/tables/{table.pk}/")
        page.click("text=Claim a high hand")
        page.wait_for_selector("#claim")
        assert page.input_value("#id_table") == str(table.pk)
        assert page.input_value("#id_promotion") == str(promotion.pk)
        # A claim whose hole cards do not both play is refused, naming the rule.
        page.fill("#id_seat", "3")
        page.fill("#id_hole_cards", "ah 4s")
        page.fill("#id_board", "Qs Qh Qd Qc 9s")
        page.click("#claim button[type=submit]")
        assert "both hole cards must play" in page.inner_text("#claim")
        assert HighHandClaim.objects.count() == 0
        page.fill("#id_seat", "3")
        page.fill("#id_hole_cards", "9h 9d")
        page.fill("#id_board", "9s qc qd 2h 10c")
        page.click("#claim button[type=submit]")
        page.wait_for_selector("text=Full house is the period's high hand.")
        assert "Lucky Eva" in page.inner_text("#high-hands")
        screenshot(page, "high-hand-floor-claim")
    finally:
        context.close()

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    screen = tv.new_page()
    screen.set_default_timeout(10_000)
    try:
        screen.goto(f"{live_server.url}/tv/promotions/")
        text = " ".join(screen.inner_text("main").split())
        assert "Full house" in text and "Lucky Eva" in text and "Table 3, seat 3" in text
        assert "250.00" in text
        assert screen.locator(".tvp-cards .pcard").count() == 7
        assert screen.locator(".tvp-cards .pcard.red").count() == 4  # 9h 9d, and Qd 2h on the board
        left = screen.inner_text(".tvp-left time")
        assert ":" in left
        # The prize about 5 % of the screen's height: legible from across the room.
        size = screen.evaluate("parseFloat(getComputedStyle(document.querySelector('.tvp-prize')).fontSize)")
        assert size >= 0.05 * 1080, size
        assert screen.evaluate(OFF_SCREEN) == []
        screenshot(screen, "high-hand-tv-1920x1080")
    finally:
        tv.close()
    assert books_problems() == []
