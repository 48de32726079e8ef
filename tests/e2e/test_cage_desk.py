"""Browser journey at the cage (CAG-2 to CAG-6): the tournament cashier registers, pays and
seats players on one screen, then the desk finds a player by card and the shift closes with a
blind count whose running total adds up live. The books agree at the end.

Taps are counted as a finger would: a click on a button or a search result is one tap; typing
into the search box (a card swiped or a name typed) is not a tap, nor is the page loading. The
cashier starts on the tournament's screen, where the previous registration left her."""

import random

import pytest
from django.utils import timezone

from cashgame.models import PlayerSession
from cashgame.services.sessions import session_seat
from cashier.models import CashierTransaction, Shift
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry
from tournaments.services.registration import entry_register, tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Taps:
    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, selector: str) -> None:
        self.count += 1
        self.page.click(selector)


def test_register_pay_and_seat_in_at_most_three_taps_then_a_blind_count__CAG_3_CAG_4_CAG_5_CAG_6(
    page, live_server, cashier, floor
):
    now = timezone.now()
    cage_stock(cashier, now=now)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=50_000, now=now)
    tournament = TournamentFactory(
        name="Friday Deepstack",
        levels=LEVELS,
        min_players=2,
        prize_cents=9_000,
        fee_cents=1_000,
        late_registration_level=6,
        table_size=6,
    )
    for number in range(4):
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=PlayerFactory(),
            shift=shift,
            idempotency_key=f"e2e-cage-{number}",
            now=now,
        )
    tournament_start(actor=floor, tournament=tournament, now=now, rng=random.Random(5))
    eva = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151")
    shark = PlayerFactory(first_name="Ján", last_name="Šťastný", nickname="Shark", card_number="424242")
    log_in(page, live_server, "cashier1", PASSWORD)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")

    # Eva: her card typed into the search (not a tap), her name tapped, the pay button tapped.
    taps = Taps(page)
    page.fill("#player-search", "515151")
    taps(f"#player-picks [data-player-id='{eva.pk}']")
    assert "Eva Malá" in page.inner_text("#chosen-player")
    taps("#pay-button")
    page.wait_for_url("**/register/?done=*")
    receipt = page.inner_text("#done-receipt")
    entry = Entry.objects.get(player=eva)
    assert taps.count == 2 <= 3
    assert "Friday Deepstack" in receipt and f"Table {entry.table.number}, seat {entry.seat}" in receipt
    assert f"Receipt {entry.cashier_transaction.receipt_number}" in receipt and "100.00 EUR" in receipt
    assert entry.number == 5
    screenshot(page, "cage-register-receipt-1280")

    # The next player on the same screen: a nickname typed, two taps again.
    taps = Taps(page)
    page.fill("#player-search", "shark")
    taps(f"#player-picks [data-player-id='{shark.pk}']")
    taps("#pay-button")
    page.wait_for_url("**/register/?done=*")
    assert taps.count == 2
    assert "Šťastný" in page.inner_text("#done-receipt")
    assert Entry.objects.get(player=shark).table_id is not None
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "cage-register-receipt-1920")

    # The desk finds Eva by her card: her tournament seat, and the cash seat the floor gave
    # her, sold in one tap once the amount is typed.
    session_seat(actor=floor, table=make_table(make_game(), 3), player=eva, seat=2, now=timezone.now())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/cashier/")
    page.fill("#player-search", "515151")
    page.press("#player-search", "Enter")
    page.wait_for_url(f"**/cashier/?player={eva.pk}")
    card = page.inner_text("#player-card")
    assert f"Friday Deepstack · entry 5 · Table {entry.table.number}, seat {entry.seat}" in card
    assert "Table 3, seat 2" in card
    assert "Idempotency" not in page.inner_text("body")
    screenshot(page, "cage-desk-player-1280")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "cage-desk-player-1920")
    page.fill("#id_buy-in_amount", "150")
    page.click("#action-buy-in > button[type=submit].big")
    page.wait_for_url(f"**/cashier/?player={eva.pk}&done=*")
    done = page.inner_text("#done")
    assert "150.00 EUR" in done and "Eva Malá" in done and "Table 3, seat 2" in done
    assert page.locator("#action-top-up").is_visible() and page.locator("#action-cash-out").is_visible()
    screenshot(page, "cage-desk-player-seated-1920")

    # The blind count: 500.00 float + 6 x 100.00 + 150.00 = 1,250.00 EUR expected; the cashier
    # counts 2 x 500, 4 x 20 and 17 x 10, the total adds up as she types.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/cashier/shifts/{shift.pk}/close/")
    assert "1,250.00" not in page.inner_text("main")
    page.fill("#id_d_50000", "2")
    page.fill("#id_d_2000", "4")
    assert page.inner_text("#running-total") == "1,080.00 EUR"
    page.fill("#id_d_1000", "17")
    assert page.inner_text("#running-total") == "1,250.00 EUR"
    screenshot(page, "cage-blind-count-1280")
    page.click("#count-form > button[type=submit]")
    page.wait_for_url(f"**/cashier/shifts/{shift.pk}/")
    shift = Shift.objects.get(pk=shift.pk)
    assert (shift.counted_cents, shift.expected_cents, shift.variance_cents) == (125_000, 125_000, 0)
    assert shift.denominations == {"50000": 2, "2000": 4, "1000": 17}
    assert CashierTransaction.objects.filter(shift=shift).count() == 7
    assert PlayerSession.objects.get(player=eva).buy_in_cents == 15_000
    assert books_problems() == []
