"""Browser journey: a cashier's shift at the desk, typed the way staff type (CAG-2 to CAG-6). The
float and a high-stakes buy-in go over the venue's confirm threshold (1,000.00 EUR) and are read
back in words before the second tap; a buy-in tapped twice is one transaction; a top-up is typed
with a Slovak decimal comma on the Slovak page. The books agree at the end."""

import pytest

from cashgame.models import PlayerSession
from cashier.models import CashierTransaction, Shift
from cashier.selectors import drawer_expected
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import double_tap, log_in, menu_go, screenshot
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BUY_IN = "#action-buy-in > button[type=submit].big"
TOP_UP = "#action-top-up > button[type=submit].big"
CONFIRM = ".confirm-box button[type=submit]"


def pick_player(page, search: str, player) -> None:
    """The desk's search: a result tapped opens the player's card with his actions."""
    page.fill("#player-search", search)
    page.click(f"#player-picks [data-player-id='{player.pk}']")
    page.wait_for_url(f"**/cashier/?player={player.pk}")
    assert player.last_name in page.inner_text("#player-card")


def test_cashier_types_amounts_as_staff_do_and_a_double_tap_posts_once__CAG_2_CAG_3_CAG_4_CAG_5_CAG_6(
    page, live_server, cashier
):
    high = make_table(
        make_game(name="NLHE 5/10", small=500, big=1_000, min_buy_in=50_000, max_buy_in=300_000), 7
    )
    low = make_table(make_game(), 3)  # NLHE 1/2: 100.00 to 300.00 EUR
    shark = PlayerFactory(first_name="Ján", last_name="Šťastný", nickname="Shark", card_number="424242")
    eva = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151")
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    log_in(page, live_server, "cashier1", PASSWORD)

    # The float, typed with a space between the thousands, is over the threshold: read back first.
    menu_go(page, "Cage", "Cage desk")
    page.wait_for_url("**/cashier/shifts/open/")
    page.fill("#id_opening_float", "1 500")
    page.click("form.stack > button[type=submit]")
    box = page.inner_text(".confirm-box")
    assert "1,500.00 EUR" in box and "one thousand, five hundred euro" in box
    assert not Shift.objects.exists()
    page.click(CONFIRM)
    page.wait_for_url(f"{live_server.url}/cashier/")
    assert "1,500.00 EUR" in page.inner_text(".heading-row")

    # A 1,500 buy-in at the 5/10 table, English thousands comma: read back, then the second tap.
    pick_player(page, "shark", shark)
    page.fill("#id_buy-in_amount", "1,500")
    page.select_option("#id_buy-in_table", str(high.pk))
    page.fill("#id_buy-in_seat", "5")
    page.click(BUY_IN)
    box = page.inner_text(".confirm-box")
    assert "1,500.00 EUR" in box and "one thousand, five hundred euro" in box
    assert page.input_value("#id_buy-in_amount") == "1,500"  # what was typed stays as typed
    assert not CashierTransaction.objects.exists()
    screenshot(page, "cashier-desk-large-amount-read-back")
    page.click(CONFIRM)
    page.wait_for_url(f"**/cashier/?player={shark.pk}&done=*")
    done = page.inner_text("#done")
    assert "Receipt 1" in done and "1,500.00 EUR" in done and "Šťastný" in done
    page.click("#done >> text=Print receipt 1")
    page.wait_for_url("**/cashier/receipts/**?print=1")
    receipt = page.inner_text("article.receipt")
    assert "Receipt 1" in receipt and "1,500.00 EUR" in receipt and "Šťastný" in receipt
    screenshot(page, "cashier-receipt-large-buy-in")

    # Eva's buy-in, tapped twice in a hurry: both taps reach the server, one buy-in is made.
    page.click("text=Back to the desk")
    page.wait_for_url(f"{live_server.url}/cashier/?player=*")
    pick_player(page, "515151", eva)
    page.fill("#id_buy-in_amount", "200")
    page.select_option("#id_buy-in_table", str(low.pk))
    page.fill("#id_buy-in_seat", "2")
    double_tap(page, BUY_IN)
    page.wait_for_url(f"**/cashier/?player={eva.pk}&done=*")
    assert "Receipt 2" in page.inner_text("#done")
    assert CashierTransaction.objects.filter(player=eva).count() == 1

    # On the Slovak page the cashier tops Eva up by 12,50 with a decimal comma (40,00 counted).
    page.click("form.lang button[value=sk]")
    page.wait_for_function("() => document.documentElement.lang === 'sk'")
    assert "Eva" in page.inner_text("#player-card")  # "Back to the desk" returned to her card
    page.fill("#id_top-up_chips_on_table", "40")
    page.fill("#id_top-up_amount", "12,50")
    page.click(TOP_UP)
    page.wait_for_url(f"**/cashier/?player={eva.pk}&done=*")
    done = page.inner_text("#done")
    screenshot(page, "cashier-desk-slovak-top-up")
    assert "Doklad 3" in done and "12,50 EUR" in done

    records = list(CashierTransaction.objects.order_by("receipt_number"))
    assert [(r.receipt_number, r.kind, r.player_id, r.amount_cents, r.reference) for r in records] == [
        (1, "cash_buy_in", shark.pk, 150_000, high.reference),
        (2, "cash_buy_in", eva.pk, 20_000, low.reference),
        (3, "top_up", eva.pk, 1_250, low.reference),
    ]
    sessions = {s.player_id: s for s in PlayerSession.objects.all()}
    assert (sessions[shark.pk].table_id, sessions[shark.pk].seat, sessions[shark.pk].buy_in_cents) == (
        high.pk,
        5,
        150_000,
    )
    assert (sessions[eva.pk].buy_in_cents, sessions[eva.pk].top_up_cents) == (20_000, 1_250)
    # 1,500.00 float + 1,500.00 + 200.00 + 12.50 in cash.
    assert drawer_expected(shift=Shift.objects.get()) == 321_250
    assert books_problems() == []
