"""Browser journey at the cage with a thermal printer (CAG-4): a buy-in prints its receipt on
the desk's printer (a stand-in listening on 127.0.0.1) and opens the cash drawer; the printer is
switched off, the next buy-in still goes through and the desk shows "print again"; the printer
comes back, one tap prints the receipt and the notice goes. The books agree at the end."""

import pytest
from django.core.management import call_command
from django.utils import timezone

from cashgame.services.sessions import session_seat
from cashier.models import CashierTransaction
from cashier.services import shift_open
from printing.models import JobStatus, PrintJob
from printing.services import printer_save
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory, cage_stock
from tests.printing.stand_in import StandInPrinter, read_escpos

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SELL = "#action-buy-in > button[type=submit].big"
CONFIRM = "#action-buy-in .confirm-box button[type=submit]"
DRAWER_KICK = b"\x1bp\x00\x32\x32"
CUT = b"\x1dV\x00"


def sell(page, player, amount: str) -> None:
    page.fill("#player-search", player.card_number)
    page.press("#player-search", "Enter")
    page.wait_for_url(f"**/cashier/?player={player.pk}")
    page.fill("#id_buy-in_amount", amount)
    page.click(SELL)
    if page.locator(CONFIRM).count():
        page.click(CONFIRM)
    page.wait_for_url(f"**/cashier/?player={player.pk}&done=*")


def test_a_buy_in_prints_and_opens_the_drawer_and_a_printer_off_shows_print_again__CAG_4(
    page, live_server, cashier, floor, manager
):
    now = timezone.now()
    printer = StandInPrinter().start()
    try:
        printer_save(
            actor=manager,
            name="Cage 1",
            desk="Cage window 1",
            desk_kind="cage",
            connection="network",
            host="127.0.0.1",
            port=printer.port,
            paper_width=48,
            code_page="CP852",
            has_cash_drawer=True,
            active=True,
        )
        cage_stock(cashier, now=now)
        shift_open(actor=cashier, opening_float_cents=100_000, now=now)
        table = make_table(
            make_game(name="NLHE 5/10", small=500, big=1_000, min_buy_in=50_000, max_buy_in=300_000), 4
        )
        eva = PlayerFactory(first_name="Eva", last_name="Nováková", card_number="515151", id_verified_at=now)
        jan = PlayerFactory(first_name="Ján", last_name="Šťastný", card_number="424242", id_verified_at=now)
        session_seat(actor=floor, table=table, player=eva, seat=2, now=now)
        session_seat(actor=floor, table=table, player=jan, seat=5, now=now)
        # The manager finds the printer from the venue's settings.
        log_in(page, live_server, "manager1", PASSWORD)
        page.goto(f"{live_server.url}/venue/")
        page.click("text=Receipt printers")
        page.wait_for_url("**/printing/")
        row = page.inner_text("#printers tbody tr")
        assert "Cage 1" in row and f"127.0.0.1:{printer.port}" in row
        screenshot(page, "printing-printers-manager")
        page.context.clear_cookies()

        log_in(page, live_server, "cashier1", PASSWORD)
        page.goto(f"{live_server.url}/cashier/")

        # Eva's buy-in: the receipt comes out of the printer and the drawer opens.
        sell(page, eva, "1,500")
        stream = printer.wait_for(1)[0]
        printout = read_escpos(stream)
        assert "Receipt 1" in printout.lines
        assert any(
            line.startswith("Player") and line.endswith("Eva Nováková #515151") for line in printout.lines
        )
        assert any(line.startswith("Amount") and line.endswith("1,500.00 EUR") for line in printout.lines)
        assert "Nováková".encode("cp852") in stream
        assert printout.has(DRAWER_KICK) and printout.has(CUT)
        assert page.locator("#print-failures").count() == 0

        # The printer is switched off: Ján's buy-in stands, the desk says it did not print.
        printer.stop()
        sell(page, jan, "600")
        assert CashierTransaction.objects.filter(player=jan, amount_cents=60_000).count() == 1
        notice = page.inner_text("#print-failures")
        assert "Not printed" in notice and "Receipt 2" in notice
        assert page.get_attribute("#print-failures a.button", "href").endswith("?print=1")
        screenshot(page, "cage-desk-print-again")
        assert (
            PrintJob.objects.get(reference__startswith="receipt:", status=JobStatus.FAILED).title
            == "Receipt 2"
        )

        # Switched on again: one tap prints it, and the notice goes.
        printer.start()
        page.click("#print-failures button.primary")
        page.wait_for_url("**/cashier/?player=*")
        assert page.locator("#print-failures").count() == 0
        assert "Receipt 2 printed." in page.inner_text(".messages")
        reprint = read_escpos(printer.wait_for(2)[1])
        assert "Receipt 2" in reprint.lines
        assert any(
            line.startswith("Player") and line.endswith("Ján Šťastný #424242") for line in reprint.lines
        )
        assert reprint.has(CUT) and not reprint.has(DRAWER_KICK)
        screenshot(page, "cage-desk-printed-again")
        assert list(PrintJob.objects.order_by("pk").values_list("status", "attempts")) == [
            (JobStatus.DONE, 1),
            (JobStatus.DONE, 2),
        ]
    finally:
        printer.stop()
    assert books_problems() == []
    call_command("check_books")
