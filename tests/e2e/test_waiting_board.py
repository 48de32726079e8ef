"""The public waiting board on a 1080p TV (CSH-7, WTL-3): games in columns, names legible from
6 m, two players with one nickname told apart, and a new player shown by the board's own poll."""

import pytest

from cashgame.services.waiting import waiting_add, waiting_call_next
from tests.cashgame.conftest import make_game, make_table
from tests.e2e.conftest import screenshot
from tests.e2e.test_tv_screens import OFF_SCREEN
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_waiting_board_reads_from_across_the_room__CSH_7_WTL_3(browser, live_server, floor):
    games = [make_game(), make_game(name="NLHE 2/5", small=200, big=500), make_game(name="PLO 1/2")]
    table = make_table(games[0], 3)
    people = [
        ("Peter", "Kováč", "Nits"),
        ("Marek", "Mráz", "Nits"),
        ("Eva", "Kollárová", ""),
        ("Jozef", "Novák", "Shark"),
        ("Ivana", "Šimková", ""),
    ]
    players = [PlayerFactory(first_name=f, last_name=last, nickname=n) for f, last, n in people]
    for player in players[:4]:
        waiting_add(actor=floor, game=games[0], player=player)
    waiting_add(actor=floor, game=games[1], player=players[4])
    waiting_add(actor=floor, game=games[1], player=players[0])
    waiting_call_next(actor=floor, game=games[0], table=table)

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{live_server.url}/board/")
        columns = page.locator(".board-game").all()
        assert len(columns) == 3
        tops = {round(column.bounding_box()["y"]) for column in columns}
        assert len(tops) == 1  # side by side, one column per game
        first = [" ".join(t.split()) for t in columns[0].locator("li").all_inner_texts()]
        assert first[0].startswith("1 Nits K. Table 3 · ")
        assert first[1:] == ["2 Nits M.", "3 Eva K.", "4 Shark"]
        text = page.inner_text("body")
        for secret in ("Kováč", "Mráz", "Kollárová", "Novák", "Šimková", "Peter", "Marek"):
            assert secret not in text
        # Names about 6 % of the screen's height: legible from 6 m on a living-room TV.
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.board-name')).fontSize)")
        assert size >= 0.05 * 1080, size
        assert page.evaluate(OFF_SCREEN) == []
        screenshot(page, "waiting-board-1920x1080")
        # A player added at the desk shows up by the board's own poll (every 5 s), no reload.
        page.evaluate("window.loadedOnce = true")
        waiting_add(
            actor=floor, game=games[2], player=PlayerFactory(first_name="Zuzana", last_name="Horváthová")
        )
        plo = ".board-game:has(h2:text-is('PLO 1/2'))"
        page.wait_for_selector(f"{plo} li:has-text('Zuzana H.')", timeout=8_000)
        assert page.evaluate("window.loadedOnce") is True
    finally:
        context.close()
