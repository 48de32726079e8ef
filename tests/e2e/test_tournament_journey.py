"""Browser journey: a tournament from registration to the last prize (TRN-1, TRN-6, TRN-8,
TRN-9, TRN-10, CAG-4), through the real pages: the cashier registers ten players at the desk,
the floor starts the clock and the seats are drawn, the floor records the bust-outs, and the
cashier pays the three winners. The float is typed '1,500' and read back before the second tap
(CAG-5); a buy-in and a prize tapped twice are each paid once (CAG-2); the books agree at the
end (CAG-6)."""

from collections import Counter

import pytest

from cashier.models import AccountKind, CashierTransaction, Shift
from cashier.selectors import account_amount, drawer_expected, ledger_total, prize_pool_balance
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import double_tap, log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NAMES = ["Adam", "Beata", "Cyril", "Dorota", "Emil", "Filip", "Gita", "Hana", "Igor", "Jana"]


def new_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


@pytest.mark.long
def test_floor_runs_a_ten_player_tournament_and_the_cashier_pays_the_winners__TRN_10(
    browser, page, live_server, floor, cashier
):
    tournament = TournamentFactory(
        name="Friday Freezeout",
        prize_cents=9_000,
        fee_cents=1_000,
        min_players=10,
        table_size=9,
        starting_stack_chips=20_000,
        levels=[(25, 50, 1200), (50, 100, 1200), (100, 200, 1200)],
    )
    players = [
        PlayerFactory(first_name=name, last_name="Novák", card_number=f"{710_000 + number}")
        for number, name in enumerate(NAMES)
    ]
    desk = page  # the cashier's browser
    log_in(desk, live_server, "cashier1", PASSWORD)
    desk.goto(f"{live_server.url}/cashier/shifts/open/")
    desk.fill("#id_opening_float", "1,500")
    desk.click("text=Open shift >> nth=-1")
    assert "one thousand, five hundred euro" in desk.inner_text(".confirm-box")
    desk.click(".confirm-box button[type=submit]")
    desk.wait_for_url(f"{live_server.url}/cashier/")

    # The cashier takes ten buy-ins at the tournament desk, each with its receipt (TRN-6, CAG-4).
    for number, player in enumerate(players, start=1):
        desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")
        desk.fill("#player-search", player.card_number)
        desk.click(f"[data-player-id='{player.pk}']")
        assert desk.is_checked("#id_present")
        if number == 1:  # the first buy-in is tapped twice: one entry, one receipt
            double_tap(desk, "#pay-button")
        else:
            desk.click("#pay-button")
        desk.wait_for_url("**/register/?done=*")
        receipt = desk.inner_text("#done-receipt")
        assert f"Receipt {number}" in receipt and "100.00 EUR" in receipt and player.first_name in receipt
    screenshot(desk, "tournament-tenth-buy-in-receipt")

    floor_context, floor_page = new_page(browser)
    try:
        log_in(floor_page, live_server, "floor1", PASSWORD)
        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/entries/")
        assert floor_page.locator("table.data tbody tr").count() == 10
        screenshot(floor_page, "tournament-registration-desk")

        # Start: ten registered reach the minimum (TRN-1); the seats are drawn (TRN-9).
        floor_page.click("text=Dashboard")
        floor_page.get_by_role("button", name="Start the clock", exact=True).click()
        floor_page.wait_for_selector("text=The clock is running.")
        floor_page.click("text=Seating chart")
        floor_page.wait_for_url("**/seating/")
        screenshot(floor_page, "tournament-seating-chart")
        seated = Counter(Entry.objects.filter(tournament=tournament).values_list("table__number", flat=True))
        assert sorted(seated.values()) == [5, 5]  # two tables of five, not one of nine and one alone

        # The payout table: half, thirty and twenty per cent of 900.00 EUR.
        floor_page.click("text=Payouts")
        floor_page.fill("#id_percentages", "50, 30, 20")
        floor_page.get_by_role("button", name="Save payout table", exact=True).click()
        floor_page.wait_for_selector("text=Payout table saved.")

        # Bust-outs, one hand at a time, the last hand knocking out two (TRN-10).
        floor_page.click("text=Bust-outs")
        floor_page.wait_for_url("**/bust/")
        for _hand in range(7):
            bust(floor_page, [4_000])
        third, second = bust(floor_page, [3_000, 9_000])  # the larger stack finishes higher
        assert floor_page.locator("input[name=entry]").count() == 1  # the winner
        finished = floor_page.inner_text("h2:has-text('Finishing places') + .table-wrap")
        screenshot(floor_page, "tournament-finishing-places")
        assert "450.00 EUR" in finished and "270.00 EUR" in finished and "180.00 EUR" in finished

        # The cashier pays the three prizes, each with its receipt.
        for prize in range(3):
            desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")
            if prize == 0:  # the first prize is tapped twice: paid once
                double_tap(desk, "button:has-text('Pay prize') >> nth=0")
            else:
                desk.locator("button:has-text('Pay prize')").first.click()
            desk.wait_for_url("**/cashier/receipts/**")
        screenshot(desk, "tournament-last-prize-receipt")
        desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")
        assert desk.locator("button:has-text('Pay prize')").count() == 0

        floor_page.click("text=Dashboard")
        floor_page.once("dialog", lambda dialog: dialog.accept())
        floor_page.get_by_role("button", name="Finish", exact=True).click()
        floor_page.wait_for_selector("text=Tournament finished.")
        screenshot(floor_page, "tournament-finished")
    finally:
        floor_context.close()

    entries = Entry.objects.filter(tournament=tournament).select_related("prize_transaction")
    by_place = {entry.finish_place: entry for entry in entries}
    assert sorted(by_place) == list(range(1, 11))
    assert (by_place[2].pk, by_place[3].pk) == (int(second), int(third))
    for place, amount in ((1, 45_000), (2, 27_000), (3, 18_000)):
        record = by_place[place].prize_transaction
        assert (by_place[place].prize_cents, record.kind, record.player_id, record.amount_cents) == (
            amount,
            "prize_payout",
            by_place[place].player_id,
            amount,
        )
    assert all(not by_place[place].prize_cents for place in range(4, 11))
    assert CashierTransaction.objects.filter(kind="prize_payout").count() == 3
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 10_000
    # 1,500.00 float + 10 x 100.00 buy-ins - 900.00 prizes.
    assert drawer_expected(shift=Shift.objects.get()) == 160_000
    assert sorted(CashierTransaction.objects.values_list("receipt_number", flat=True)) == list(range(1, 14))
    assert Entry.objects.filter(tournament=tournament, player=players[0]).count() == 1
    assert ledger_total() == 0
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert books_problems() == []


def bust(page, stacks: list[int]) -> list[str]:
    """Tick the first live players, give their chips at the start of the hand, record it.
    Returns the busted entries' ids."""
    boxes = page.locator("input[name=entry]")
    busted = []
    for index, stack in enumerate(stacks):
        entry_id = boxes.nth(index).get_attribute("value")
        boxes.nth(index).check()
        page.fill(f"input[name=stack_{entry_id}]", str(stack))
        busted.append(entry_id)
    before = boxes.count()
    page.get_by_role("button", name="Record bust-out", exact=True).click()
    page.wait_for_selector("text=Bust-out recorded.")
    assert page.locator("input[name=entry]").count() == before - len(stacks)
    return busted
