"""Browser journey (WTL-1, WTL-2, CSH-7): two players join a list from their phones without a
card; the floor seats each from the floor view, checking them in within the seat panel (one is
found in the register, the other registered there, the button tapped twice); the staff's list
and the room's board count a called player's hold down live; the board shows each game's
tables and free seats. Screenshots in English and Slovak; the books agree at the end."""

import re

import pytest
from django.core.cache import cache
from django.utils import timezone

from cardroom.models import AuditRecord
from cashgame.models import PlayerSession, SeatState, WaitingEntry, WaitStatus
from cashgame.services.sessions import session_buy_in, session_state_change
from cashgame.services.waiting import waiting_add
from cashier.services import shift_open
from players.models import Player
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

COUNTDOWN = re.compile(r"^(\d+):(\d\d)$")


def join_from_phone(browser, live_server, game, nickname: str, phone: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-GB", is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{live_server.url}/wait/")
        page.check(f"input[name=game][value='{game.pk}']")
        page.fill("input[name=nickname]", nickname)
        page.fill("input[name=phone]", phone)
        page.click("button[type=submit].primary")
        page.wait_for_url("**/wait/s/**")
    finally:
        context.close()


def seconds(text: str) -> int:
    match = COUNTDOWN.match(text.strip())
    assert match, text
    return int(match[1]) * 60 + int(match[2])


def assert_counts_down(page, selector: str) -> None:
    """The hold's countdown changes by itself, without a reload, over about two seconds."""
    before = seconds(page.inner_text(selector))
    page.wait_for_timeout(2_100)
    after = seconds(page.inner_text(selector))
    assert 1 <= before - after <= 3, (before, after)


def open_seat(page, table, seat: int) -> None:
    """Tap a drawn seat and wait for its own panel (another seat's may be open)."""
    page.click(f"#cash-table-{table.number} .seat[data-seat='{seat}']")
    page.wait_for_selector(f"#seat-panel #seat-sheet-title:text-matches('{table.number} · [^ ]+ {seat}$')")


def test_phone_joiners_are_checked_in_and_seated_from_the_floor_view__WTL_1_WTL_2_CSH_7(
    browser, page, live_server, floor, cashier
):
    cache.clear()  # the phone joins' attempt counter (WTL-1) of earlier runs from this address
    now = timezone.now()
    game = make_game()
    other = make_game(name="PLO 2/5", small=200, big=500, min_buy_in=20_000, max_buy_in=100_000)
    table = make_table(game, number=4)
    table6 = make_table(other, number=6, seats=6)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    for seat in range(1, 7):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at=now),
            seat=seat,
            amount_cents=15_000,
            idempotency_key=f"e2e-check-in-buy-in-{seat}",
        )
        session_state_change(actor=floor, session=session, action="posted")
    lucia = PlayerFactory(first_name="Lucia", last_name="Nováková", nickname="", id_verified_at=now)

    # 1. Two players join the 1/2 list from their phones, with a nickname and a phone number only.
    join_from_phone(browser, live_server, game, "Lucky", "+421 905 123 456")
    join_from_phone(browser, live_server, game, "Maťo", "0905 654 321")

    # 2. The floor taps seat 7: the panel's main action is Lucky's check-in, not a seat button
    # the service would refuse.
    log_in(page, live_server, "floor1", PASSWORD)
    page.goto(f"{live_server.url}/floor/")
    page.evaluate("window.loadedOnce = true")  # gone if the page reloads
    open_seat(page, table, 7)
    assert page.locator("#seat-panel button[data-action=seat-next]").count() == 0
    panel = " ".join(page.inner_text("#seat-panel").split())
    assert "Check in Lucky" in panel and "Lucky joined from a phone without a player card" in panel
    screenshot(page, "seat-panel-check-in-1280x800")
    # Found in the register by typing part of the name; one tap checks in and seats.
    page.fill("#seat-panel input[name=q]", "nová")
    found = f"#seat-panel button[data-action=check-in-found][value='{lucia.pk}']"
    page.wait_for_selector(found)
    screenshot(page, "seat-panel-check-in-found-1280x800")
    page.click(found)
    page.wait_for_selector("#seat-panel .sheet-outcome.success")
    assert "Lucia Nováková takes seat 7 at Table 4 and buys in at the cage." in page.inner_text("#seat-panel")
    page.wait_for_selector(f"#cash-table-{table.number} .seat[data-seat='7'].seat--awaiting_buy_in")

    # 3. Seat 8 goes to Maťo, who is not registered yet: registered from the panel, the button
    # tapped twice (one player, one seat).
    open_seat(page, table, 8)
    assert "Check in Maťo" in page.inner_text("#seat-panel")
    page.click("#seat-panel details.register summary")
    page.fill("#check-in-first_name", "Matej")
    page.fill("#check-in-last_name", "Ďurica")
    page.fill("#check-in-date_of_birth", "1988-02-29")
    screenshot(page, "seat-panel-register-1280x800")
    # Two taps in a row (a double click): htmx holds the second until the first is answered,
    # and the service answers a repeat with the seat it gave.
    posts: list = []
    page.on("request", lambda request: posts.append(request) if request.method == "POST" else None)
    page.dblclick("#seat-panel button[data-action=check-in-register]")
    page.wait_for_selector("#seat-panel .sheet-outcome")
    page.wait_for_timeout(500)  # a second answer, if any, lands too
    outcome = page.inner_text("#seat-panel .sheet-outcome")
    assert page.evaluate("window.loadedOnce") is True
    assert 1 <= len(posts) <= 2
    matej = Player.objects.get(last_name="Ďurica")
    assert matej.first_name == "Matej" and matej.nickname == "Maťo"
    # A second tap that reached the server found it done and answered the same, writing nothing.
    assert outcome == (
        f"New player card {matej.card_number} for Matej Ďurica, who takes seat 8 at Table 4 and buys in "
        "at the cage."
    )
    assert Player.objects.filter(last_name="Ďurica").count() == 1
    seated = {s.seat: s for s in PlayerSession.objects.filter(table=table, ended_at__isnull=True)}
    assert (seated[7].player, seated[8].player) == (lucia, matej)
    assert (seated[7].state, seated[8].state) == (SeatState.AWAITING_BUY_IN, SeatState.AWAITING_BUY_IN)
    entries = WaitingEntry.objects.filter(game=game).order_by("added_at", "pk")
    assert [(e.nickname, e.player, e.status, e.seat) for e in entries] == [
        ("Lucky", lucia, WaitStatus.SEATED, 7),
        ("Maťo", matej, WaitStatus.SEATED, 8),
    ]
    assert AuditRecord.objects.filter(action="player.create", actor_name="floor1").count() == 1
    assert AuditRecord.objects.filter(action="cashgame.waiting_check_in").count() == 2

    # 4. The staff's list: a player called to the last free seat holds it; the hold counts down.
    # (Card numbers given: the new card above took the next of the factory's.)
    for game_of, first, card in (
        (game, "Gita", "700001"),
        (game, "Hana", "700002"),
        (other, "Ivan", "700003"),
    ):
        waiting_add(actor=floor, game=game_of, player=PlayerFactory(first_name=first, card_number=card))
    page.goto(f"{live_server.url}/cashgame/waiting/")
    page.click(f"section[data-game='{game.pk}'] button:text('Call the next')")
    page.wait_for_selector("time[data-countdown]")
    assert_counts_down(page, "time[data-countdown]")
    assert "called to Table 4, seat 9" in page.inner_text(f"section[data-game='{game.pk}']")
    screenshot(page, "waiting-list-1280x800")

    # 5. The board: each game's tables and free seats, the hold counting down on the TV too.
    board = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    try:
        board.goto(f"{live_server.url}/board/")
        columns = {c.locator("h2").inner_text(): c for c in board.locator(".board-game").all()}
        assert columns["NLHE 1/2"].locator(".board-tables").inner_text() == "Table 4 · no free seat"
        assert columns["PLO 2/5"].locator(".board-tables").inner_text() == "Table 6 · 6 free seats"
        assert_counts_down(board, ".board-call time[data-countdown]")
        screenshot(board, "waiting-board-tables-1920x1080")
        board.set_viewport_size({"width": 1280, "height": 800})
        screenshot(board, "waiting-board-tables-1280x800")
        board.goto(f"{live_server.url}/board/?lang=sk")
        assert "Stôl 6 · 6 voľných miest" in board.inner_text("body")
        screenshot(board, "waiting-board-tables-sk-1280x800")
        board.set_viewport_size({"width": 1920, "height": 1080})
        screenshot(board, "waiting-board-tables-sk-1920x1080")
    finally:
        board.context.close()

    # 6. The same screens in Slovak: the list and a check-in panel.
    page.click(".lang button[value=sk]")
    page.wait_for_selector("html[lang=sk]")
    assert "zostáva" in page.inner_text(f"section[data-game='{game.pk}']")
    screenshot(page, "waiting-list-sk-1280x800")
    join_from_phone(browser, live_server, other, "Zuzka", "+421 907 000 111")
    page.goto(f"{live_server.url}/floor/")
    open_seat(page, table6, 1)
    # Ivan, added at the desk, is next; Zuzka, after him, can be checked in from the list.
    assert "Posadiť: Ivan" in page.inner_text("#seat-panel button[data-action=seat-next]")
    page.click("#seat-panel a:text('Potvrdiť príchod a posadiť: Zuzka')")
    page.wait_for_selector("#seat-panel .check-in")
    assert "Potvrdiť príchod: Zuzka" in page.inner_text("#seat-panel .check-in h3")
    screenshot(page, "seat-panel-check-in-sk-1280x800")

    # 7. The cage sells Lucia her chips at the seat the floor gave her; the books agree.
    session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=lucia,
        amount_cents=20_000,
        idempotency_key="e2e-check-in-lucia",
    )
    assert PlayerSession.objects.get(player=lucia, ended_at__isnull=True).seat == 7
    assert books_problems() == []
