import pytest

from cashier.models import CashierTransaction, Shift
from cashier.selectors import drawer_expected
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_cashier_opens_shift_and_sells_a_buy_in__CAG_3_CAG_4(page, live_server, cashier):
    player = PlayerFactory(first_name="Ján", last_name="Šťastný", nickname="Shark", card_number="424242")
    log_in(page, live_server, "cashier1", PASSWORD)

    page.click("nav.mainnav >> text=Cashier")
    page.wait_for_url("**/cashier/shifts/open/")
    page.fill("#id_opening_float", "500,00")
    page.click("text=Open shift >> nth=-1")
    page.wait_for_url(f"{live_server.url}/cashier/")
    assert "500.00 EUR" in page.inner_text(".heading-row")

    page.fill("#player-search", "shark")
    page.click(f"[data-player-id='{player.pk}']")
    assert "Šťastný" in page.inner_text("#chosen-player")
    page.select_option("#id_kind", "cash_buy_in")
    page.fill("#id_amount", "150")
    page.fill("#id_reference", "table:3")
    screenshot(page, "cashier-desk-before-buy-in")
    page.click("text=Record and print receipt")
    page.wait_for_url("**/cashier/receipts/**")
    receipt = page.inner_text("article.receipt")
    screenshot(page, "cashier-receipt")

    assert "Receipt 1" in receipt
    assert "150.00 EUR" in receipt
    record = CashierTransaction.objects.get()
    assert (record.amount_cents, record.reference, record.player_id) == (15_000, "table:3", player.pk)
    assert drawer_expected(shift=Shift.objects.get()) == 65_000
