"""CHP-2 fill and credit slips on the cage's printer, receipts and slips as PDF (read back with
pypdf), the manager's printer page and the desk's "print again" (CAG-4)."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from cage.services import DeskRequest, transaction_route
from cardroom.models import AuditRecord
from cardroom.pdf import pdf_unavailable
from chips.models import ChipPosting, ChipSet, ChipSetKind
from printing.models import JobStatus, Printer, PrintJob
from reports.selectors.books import books_problems
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.printing.stand_in import read_escpos
from tests.printing.test_receipt_print import CUT, row

pytestmark = pytest.mark.django_db
needs_pdf = pytest.mark.skipif(
    pdf_unavailable() is not None, reason=f"no PDF on this machine: {pdf_unavailable()}"
)


def fill(client, table) -> ChipPosting:
    cash = ChipSet.objects.get(kind=ChipSetKind.CASH)
    client.post(
        reverse("cashier:chip-slip-new", args=[cash.pk]),
        {
            "request_key": "print-test-fill-0001",
            "kind": "fill",
            "table": f"cash:{table.pk}",
            "chip_500": "40",
            "dealer_name": "Eva Nováková",
            "floor_name": "Ľuboš",
        },
    )
    return ChipPosting.objects.get(kind="fill")


def test_a_fill_prints_its_slip_at_the_cashiers_desk__CHP_2(
    client, cashier, shift, table, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    client.force_login(cashier)
    with django_capture_on_commit_callbacks(execute=True):
        posting = fill(client, table)
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert printout.lines[1] == f"Fill #{posting.pk}"
    assert row("Table", "Table 3") in printout.lines
    assert printout.lines[6:8] == [row("From", "Cage"), row("To", "Table 3")]
    assert printout.lines[9] == row("5.00 EUR Red × 40", "200.00 EUR")
    assert row("Total × 40", "200.00 EUR") in printout.lines
    assert "Dealer: Eva Nováková" in printout.lines and "Floor: Ľuboš" in printout.lines
    assert printout.has(CUT) and not any(command.startswith(b"\x1bp") for command in printout.commands)
    assert PrintJob.objects.get().reference == f"chip_slip:{posting.pk}"


def pdf_text(response) -> str:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages
    )


@needs_pdf
def test_a_receipt_downloads_as_pdf_with_slovak_letters__CAG_4(client, cashier, shift, table, player):
    record = transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(
            kind="cash_buy_in",
            player_id=player.pk,
            amount_cents=150_000,
            method="cash",
            table_id=table.pk,
            seat=2,
        ),
        idempotency_key=key(),
        now=T0,
    )
    client.force_login(cashier)
    response = client.get(reverse("cashier:receipt-pdf", args=[record.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="receipt-{record.receipt_number}.pdf"'
    text = pdf_text(response)
    assert f"Receipt {record.receipt_number}" in text
    assert "Šimon Šťastný #100042" in text and "1,500.00 EUR" in text and "Table 3" in text
    assert books_problems() == []


@needs_pdf
def test_a_fill_slip_downloads_as_pdf__CHP_2(client, cashier, shift, table):
    client.force_login(cashier)
    posting = fill(client, table)
    text = pdf_text(client.get(reverse("cashier:chip-slip-pdf", args=[posting.pk])))
    assert (
        f"Fill #{posting.pk}" in text and "200.00 EUR" in text and "Eva Nováková" in text and "Ľuboš" in text
    )


def printer_form(**extra) -> dict:
    return {
        "name": "Cage 2",
        "desk": "Cage window 2",
        "desk_kind": "cage",
        "connection": "network",
        "host": "10.0.0.52",
        "port": "9100",
        "usb_vendor_id": "",
        "usb_product_id": "",
        "paper_width": "48",
        "code_page": "CP852",
        "has_cash_drawer": "on",
        "active": "on",
        **extra,
    }


def test_a_manager_sets_up_a_printer_and_it_is_audited__CAG_4(client, manager):
    client.force_login(manager)
    response = client.post(reverse("printing:printers"), printer_form())
    assert response.status_code == 302
    printer = Printer.objects.get()
    assert (printer.address, printer.has_cash_drawer, printer.code_page) == ("10.0.0.52:9100", True, "CP852")
    record = AuditRecord.objects.get(action="printing.printer_create")
    assert record.after["host"] == "10.0.0.52" and record.actor == manager
    page = client.get(reverse("printing:printers")).content.decode()
    assert "<code>10.0.0.52:9100</code>" in page
    usb = client.post(
        reverse("printing:printers"),
        printer_form(
            name="Floor",
            desk_kind="floor",
            connection="usb",
            host="",
            usb_vendor_id="04b8",
            usb_product_id="0e15",
        ),
    )
    assert usb.status_code == 302
    assert Printer.objects.get(name="Floor").address == "USB 04b8:0e15"


def test_a_network_printer_without_a_host_is_refused_and_nothing_is_written__CAG_4(client, manager):
    client.force_login(manager)
    response = client.post(reverse("printing:printers"), printer_form(host=""))
    assert response.status_code == 200
    assert "A network printer needs its host name or address." in response.content.decode()
    assert (
        not Printer.objects.exists()
        and not AuditRecord.objects.filter(action__startswith="printing.").exists()
    )


def test_the_desk_shows_a_failed_print_and_print_again_prints_it__CAG_4(
    client, cashier, shift, table, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    stand_in.stop()
    client.force_login(cashier)
    with django_capture_on_commit_callbacks(execute=True):
        record = transaction_route(
            actor=cashier,
            shift=shift,
            request=DeskRequest(
                kind="cash_buy_in",
                player_id=player.pk,
                amount_cents=20_000,
                method="cash",
                table_id=table.pk,
                seat=4,
            ),
            idempotency_key=key(),
            now=T0,
        )
    job = PrintJob.objects.get()
    desk = client.get(reverse("cashier:desk")).content.decode()
    assert f"Receipt {record.receipt_number}" in desk and "Print again" in desk
    assert f'href="/cashier/receipts/{record.pk}/?print=1"' in desk  # the browser's print beside it
    stand_in.start()
    answer = client.post(reverse("printing:job-retry", args=[job.pk]), {"next": "/cashier/"})
    assert answer.url == "/cashier/"
    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert f"Receipt {record.receipt_number}" in read_escpos(stand_in.wait_for(1)[0]).lines
    assert "Print again" not in client.get(reverse("cashier:desk")).content.decode()
    again = client.post(
        reverse("printing:job-retry", args=[job.pk]), {"next": "https://evil.example/"}, follow=True
    )
    assert f"Receipt {record.receipt_number} was printed already." in again.content.decode()
    assert len(stand_in.prints) == 1
    assert books_problems() == []


def test_a_cage_with_two_printers_asks_the_cashier_for_his_desks__CAG_4(
    client, manager, cashier, shift, cage_printer, django_capture_on_commit_callbacks
):
    from printing.selectors import shift_printer_get
    from printing.services import printer_save

    second = printer_save(
        actor=manager, name="Cage 2", desk="Cage window 2", host="10.0.0.52", has_cash_drawer=True
    )
    assert shift_printer_get(shift_id=shift.pk) is None  # two printers, none chosen: the browser prints
    client.force_login(cashier)
    desk = client.get(reverse("cashier:desk")).content.decode()
    assert "This desk prints on" in desk
    client.post(reverse("printing:desk-printer"), {"printer": second.pk, "next": "/cashier/"})
    assert shift_printer_get(shift_id=shift.pk) == second
    assert AuditRecord.objects.get(action="printing.shift_printer_set").after == {"printer": second.pk}
