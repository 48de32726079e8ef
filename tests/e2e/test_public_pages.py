"""The players' public pages on a phone (390x844) and a desk screen (1920x1080): the room page
lists the games and today's tournaments; a tap opens a tournament, whose clock counts and whose
seat finder answers "table, seat"; the TV clock and the waiting board show the room page's QR
code beside their figures, not over them. Screenshots go to test-artifacts/public/."""

import re

import pytest

from cardroom.roles import Role
from cashgame.models import HousePlayers
from cashgame.services.tables import table_house_players_set
from tests.e2e.conftest import ARTIFACTS
from tests.pages.room import build_room

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "public"
SIZES = [(390, 844), (1920, 1080)]
# Two boxes that overlap by more than a pixel.
OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1;
}"""


def test_a_phone_finds_its_seat_from_the_room_page_and_the_screens_show_the_qr_code(browser, live_server):
    room = build_room()
    table_house_players_set(
        actor=room.staff[Role.FLOOR], table=room.objects["table2"], house_players=HousePlayers.STAFF
    )
    tournament = room.objects["tournament"]
    seated = tournament.entries.filter(status="active").select_related("player", "table").first()
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{live_server.url}/room/")
        assert page.locator("#games-now ~ article h3").all_inner_texts() == ["NLHE 1/2", "NLHE 2/5"]
        free = page.locator("[data-count=free]").all_inner_texts()
        # Table 1: three seated of nine; table 2: empty, one seat held for the player called to it
        # from his phone (tests/pages/room.py).
        assert free == ["6", "8"]
        assert page.locator("[data-house]").all_inner_texts() == ["Staff play here"]
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(SHOTS / f"room-{width}x{height}.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_role("link", name=tournament.name).tap()
        page.wait_for_url(re.compile(rf"/room/tournaments/{tournament.pk}/"))
        first = page.locator("[data-field=time]").inner_text()
        page.wait_for_function(
            "(t) => document.querySelector('[data-field=time]').textContent !== t", arg=first, timeout=3000
        )
        page.fill("#find", seated.player.nickname or f"{seated.number}")
        page.get_by_role("button", name="Find").tap()
        answer = page.locator(".lobby-answer").inner_text()
        assert f"table {seated.table.number}, seat {seated.seat}" in answer
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(SHOTS / f"tournament-{width}x{height}.png"), full_page=True)
        for address, name, covered in (
            (f"/tv/{tournament.pk}/", "tv", ".tv-time"),
            ("/board/", "board", ".board-games"),
        ):
            page.goto(live_server.url + address)
            for width, height in [*SIZES, (1080, 1920)]:
                page.set_viewport_size({"width": width, "height": height})
                qr = page.locator("img[src='/room/qr.svg']")
                assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
                box = qr.bounding_box()
                if (width, height) == (1920, 1080):
                    # Across the room: at least a fifth of a landscape screen's height.
                    assert box["height"] >= 1080 / 5 * 0.8
                assert not page.evaluate(OVERLAP, [covered, "img[src='/room/qr.svg']"]), (name, width)
                page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))
    finally:
        context.close()
