"""Browser journey: the dealer board (/dealers/). Four dealers on three tables: the board shows
who deals where and the next push; a dealer clocks in by a tap; a table closes and, at the
rotation's next reconcile (the beat's, run here by the test), the board drops the table and
frees its dealer without a reload; short of dealers, it names the table left without one, and
the floor view shows each table's dealer (DLR-1, DLR-2)."""

import pytest
from django.utils import timezone

from cashgame.services.tables import table_close
from dealers.models import Dealer
from dealers.services.rotation import rotation_settle
from dealers.services.shifts import shift_clock_in, shift_clock_out
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_dealer_board_follows_a_table_closing_without_a_reload__DLR_1_DLR_2(
    browser, page, live_server, floor
):
    game = make_game()
    tables = [make_table(game, number) for number in (1, 2, 3)]
    dealers = {name: Dealer.objects.create(name=name) for name in ("Eva", "Jana", "Marek", "Peter")}
    for name in ("Eva", "Jana", "Marek"):
        shift_clock_in(actor=floor, dealer=dealers[name], now=timezone.now())

    log_in(page, live_server, "floor1", PASSWORD)
    page.goto(f"{live_server.url}/dealers/")
    board = page.locator("#dealer-board")
    assert board.locator(".dealer-table").count() == 3
    assert board.locator(".dealer-table .dealer-name").all_inner_texts() == ["Eva", "Jana", "Marek"]
    assert "Push in" in board.locator(".push-banner h2").inner_text()

    page.click("button:has-text('Clock in Peter')")
    page.wait_for_selector(".dealer-row[data-dealer='Peter']")
    assert "Free since" in page.locator(".dealer-row[data-dealer='Peter'] .dealer-state").inner_text()
    assert "Peter" in page.locator(".push-list").inner_text()  # he comes in at the next push
    screenshot(page, "dealer-board")

    table_close(actor=floor, table=tables[2], now=timezone.now())
    rotation_settle(now=timezone.now())  # the beat's reconcile, within 2 seconds in a room
    page.wait_for_function("() => document.querySelectorAll('#dealer-board .dealer-table').length === 2")
    page.wait_for_selector(".dealer-row[data-dealer='Marek'].state-free")
    assert page.locator(".dealer-table h3").all_inner_texts() == ["Table 1", "Table 2"]
    screenshot(page, "dealer-board-after-close")

    # Short of dealers: two clock out, and the board says which table goes without a dealer.
    for name in ("Marek", "Peter", "Jana"):
        shift_clock_out(actor=floor, dealer=dealers[name], now=timezone.now())
    page.wait_for_selector(".shortage")
    assert "Table 2: no dealer" in page.locator(".shortage").inner_text()
    screenshot(page, "dealer-board-short")
    page.goto(f"{live_server.url}/floor/")
    assert "Dealer: Eva" in page.locator("#cash-table-1").inner_text()
    screenshot(page, "floor-with-dealers")
