"""The daily report and a shift's close as PDF (cardroom.pdf): the daily report names the venue,
the gaming day, who pulled it and when, and "page N of M" on every page; Slovak letters survive;
each download is audited; who may open the page may download its PDF, nobody else. Without
WeasyPrint's system library the link answers with a page that says so (that test runs anywhere);
the others skip there, with the reason."""

import io
from unittest import mock

import pytest
from pypdf import PdfReader

from cardroom.models import AuditRecord
from cardroom.pdf import pdf_unavailable
from cashier.models import Shift
from tests.reports.known_day import at

pytestmark = pytest.mark.django_db
needs_pdf = pytest.mark.skipif(
    pdf_unavailable() is not None, reason=f"no PDF on this machine: {pdf_unavailable()}"
)
DAY = {"day": "2026-11-10"}


def pages(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages]


@needs_pdf
def test_the_daily_reports_pdf_names_venue_day_who_and_when_and_numbers_every_page(client, manager, room):
    client.force_login(manager)
    with mock.patch("django.utils.timezone.now", return_value=at(9, 15, day=11)):
        response = client.get("/reports/pdf/", DAY)
    assert response["Content-Disposition"] == 'attachment; filename="daily-2026-11-10.pdf"'
    text = pages(response)
    assert len(text) == 2
    first = text[0]
    assert first.startswith("Daily report · Card Room · Tuesday, 2026-11-10")
    assert "Venue Card Room Gaming day Tuesday, 2026-11-10 Pulled by manager1" in first
    assert "Pulled at 2026-11-11 09:15 (Europe/Bratislava)" in first
    assert "Rake 20.50 EUR Tournament fees 60.00 EUR Overlay 460.00 EUR" in first
    for number, page in enumerate(text, start=1):
        # The running title, who pulled it and the page number are on every page.
        assert "Daily report · Card Room · Tuesday, 2026-11-10" in page
        assert "Pulled by manager1 on 2026-11-11 09:15 (Europe/Bratislava)" in page
        assert page.endswith(f"Page {number} of 2")
    e = room.players["E"]
    assert f"2026-11-10 {e.card_number} {e.full_name} 2,000.00 1" in text[-1]  # the AML list, last
    record = AuditRecord.objects.get(action="report.export")
    assert (record.object_id, record.actor) == ("daily:report", manager)
    assert record.after == {"query": "day=2026-11-10", "filters": DAY, "rows": 1, "format": "pdf"}


@needs_pdf
def test_slovak_letters_survive_in_the_pdf(client, manager, room):
    client.force_login(manager)
    text = pages(client.get("/reports/pdf/", DAY, HTTP_ACCEPT_LANGUAGE="sk"))
    assert text[0].startswith("Denný výkaz · Card Room")
    assert "Herný deň" in text[0] and "Vyhotovil manager1" in text[0]
    assert "Čisté" in " ".join(text)  # the tournaments' net column
    assert text[0].endswith("Strana 1 z 2") and text[1].endswith("Strana 2 z 2")


@needs_pdf
def test_a_shifts_close_as_pdf_for_its_cashier_and_a_manager(client, cashier, cashier2, manager, room):
    shift = Shift.objects.get(cashier__username="cashier1")
    client.force_login(cashier)
    text = pages(client.get(f"/reports/shifts/{shift.pk}/pdf/"))
    assert len(text) == 1
    assert text[0].startswith(f"Shift close #{shift.pk} · Card Room")
    assert "Cashier cashier1 Opened 2026-11-10 10:00 Closed 2026-11-11 05:00" in text[0]
    assert (
        "Opening float 2,000.00 EUR Expected 4,056.00 EUR Counted 4,055.50 EUR Variance -0.50 EUR" in text[0]
    )
    assert f"Cash-game buy-in {room.players['A'].full_name} Cash 100.00 EUR" in text[0]
    assert text[0].endswith("Page 1 of 1")
    record = AuditRecord.objects.get(action="report.export")
    assert (record.object_id, record.actor, record.after["format"]) == (f"shift:{shift.pk}", cashier, "pdf")
    # Another cashier's shift is not his to see (as its page); a manager sees every shift.
    client.force_login(cashier2)
    assert client.get(f"/reports/shifts/{shift.pk}/pdf/").status_code == 404
    client.force_login(manager)
    assert pages(client.get(f"/reports/shifts/{shift.pk}/pdf/"))[0].startswith("Shift close")


def test_who_may_not_open_the_page_gets_no_pdf__ROL_1(client, floor, cashier, room):
    shift = Shift.objects.get(cashier__username="cashier1")
    for user in (floor, cashier):
        client.force_login(user)
        assert client.get("/reports/pdf/", DAY).status_code == 403
    client.force_login(floor)
    assert client.get(f"/reports/shifts/{shift.pk}/pdf/").status_code == 403
    client.logout()
    assert client.get("/reports/pdf/", DAY).status_code == 302
    assert not AuditRecord.objects.filter(action="report.export").exists()


def test_a_bad_day_is_the_page_with_its_error_not_a_file(client, manager, room):
    client.force_login(manager)
    response = client.get("/reports/pdf/", {"day": "yesterday"})
    assert response["Content-Type"].startswith("text/html")
    assert "Enter a valid date." in response.content.decode()
    assert not AuditRecord.objects.filter(action="report.export").exists()


def test_without_weasyprint_the_pdf_link_says_why_and_the_page_still_prints(client, manager, room):
    client.force_login(manager)
    with mock.patch("cardroom.pdf.pdf_unavailable", return_value="OSError: cannot load library 'pango'"):
        response = client.get("/reports/pdf/", DAY)
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "PDF not available" in html
    assert "Print the page from the browser instead" in html
    assert "cannot load library &#x27;pango&#x27;" in html
    assert not AuditRecord.objects.filter(action="report.export").exists()  # no file, no record


def test_the_daily_page_links_its_pdf_and_a_closed_shift_its_own(client, manager, room):
    client.force_login(manager)
    html = client.get("/reports/", DAY).content.decode()
    assert 'href="/reports/pdf/?day=2026-11-10" download>PDF</a>' in html
    shift = Shift.objects.get(cashier__username="cashier1")
    html = client.get(f"/cashier/shifts/{shift.pk}/").content.decode()
    assert f'href="/reports/shifts/{shift.pk}/pdf/" download>PDF</a>' in html
