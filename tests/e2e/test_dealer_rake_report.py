"""Browser journey: a dealer logs a hand on the dealer tablet and the rake is in the manager's
daily report (RAK-1, RAK-3, JKP-1, JKP-2, CSH-6); the books agree at the end (CAG-6)."""

import pytest
from django.utils import timezone

from cardroom.roles import Role
from cashgame.models import Hand
from cashgame.services.sessions import session_buy_in
from cashier.models import AccountKind
from cashier.selectors import account_amount, jackpot_fund_balance
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD, make_staff
from tests.e2e.conftest import log_in, menu_go, screenshot
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def report_figure(page, column: str) -> str:
    """The day's figure under `column` in the report's result table (header -> cell)."""
    return page.evaluate(
        """(column) => {
            for (const table of document.querySelectorAll("table")) {
                const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
                const at = heads.indexOf(column);
                const row = table.querySelector("tbody tr");
                if (at >= 0 && heads.includes("Tournament fees") && row) {
                    return row.children[at].textContent.trim();
                }
            }
            return null;
        }""",
        column,
    )


def test_dealer_logs_a_hand_and_its_rake_is_in_the_daily_report__RAK_3_JKP_2(
    browser, page, live_server, floor, cashier, manager
):
    now = timezone.now()
    table = make_table(make_game(), number=7)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    names = ["Anna", "Boris", "Cyril", "Dana"]
    for seat, name in enumerate(names, start=1):
        session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(first_name=name, id_verified_at=now),
            seat=seat,
            amount_cents=10_000,
            idempotency_key=f"e2e-dealer-buy-in-{seat}",
        )
    make_staff("dealer1", Role.FLOOR)

    log_in(page, live_server, "dealer1", PASSWORD)
    page.goto(f"{live_server.url}/cashgame/")
    page.click(f"a[href='/cashgame/tables/{table.pk}/dealer/']")
    page.wait_for_url(f"**/cashgame/tables/{table.pk}/dealer/")
    # A new game: nobody owes a blind yet, so the four are dealt in without posting (CSH-6); the
    # button is drawn and the dealer picks the seat that won the draw (HND-2).
    assert page.locator("button:has-text('Posted')").count() == 0
    assert page.locator("input[name=seats]:checked").count() == 4
    page.select_option("#id_button_seat", "2")
    page.get_by_role("button", name="Deal", exact=True).click()
    page.wait_for_selector("text=Hand 1 in progress")
    page.get_by_role("button", name="Flop dealt", exact=True).click()
    page.wait_for_selector("text=Flop dealt: the hand is raked")
    page.fill("input[name=pot]", "87")
    screenshot(page, "dealer-tablet-ending-hand")
    page.get_by_role("button", name="End hand", exact=True).click()
    page.wait_for_selector("text=Between hands")
    last_hand = page.inner_text("p.muted:has-text('Last hand 1')")
    screenshot(page, "dealer-tablet-hand-ended")
    # 5 % of 87.00 EUR is 4.35, rounded down to the 0.50 chip: 4.00 (RAK-3); a 1/2 table with
    # four dealt in and a pot over 20.00 drops 1.00 into the jackpot (JKP-1, JKP-2).
    assert "pot 87.00 EUR" in last_hand and "rake 4.00 EUR" in last_hand and "drop 1.00 EUR" in last_hand

    hand = Hand.objects.get(table=table)
    assert (hand.status, hand.players_dealt, hand.saw_flop, hand.pot_cents, hand.rake_cents) == (
        "ended",
        4,
        True,
        8_700,
        400,
    )
    assert hand.jackpot_drop_cents == 100
    assert account_amount(kind=AccountKind.RAKE_REVENUE) == 400
    assert jackpot_fund_balance() == 100

    manager_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    manager_page = manager_context.new_page()
    manager_page.set_default_timeout(10_000)
    try:
        log_in(manager_page, live_server, "manager1", PASSWORD)
        menu_go(manager_page, "Management", "Reports")
        manager_page.wait_for_url("**/reports/**")
        screenshot(manager_page, "daily-report-with-rake")
        # The result table says EUR once in its heading or after each amount.
        assert report_figure(manager_page, "Rake").removesuffix(" EUR") == "4.00"
        assert report_figure(manager_page, "Jackpot drops").removesuffix(" EUR") == "1.00"
    finally:
        manager_context.close()
    assert books_problems() == []
