"""Every report table as XLSX beside its CSV (cardroom.spreadsheet): amounts are number cells in
EUR with two decimals, times and days are date cells in the venue's local time, a player named
like a formula stays text, one sheet per table under a frozen header, and each file is audited.
The CSV and the XLSX of a table are the same rows."""

import csv
import io
import zipfile
from datetime import datetime
from decimal import Decimal

import openpyxl
import pytest

from cardroom.models import AuditRecord
from cardroom.spreadsheet import XLSX_CONTENT_TYPE
from players.services import player_update
from tests.reports.known_day import at

pytestmark = pytest.mark.django_db
FORMULA = '=HYPERLINK("http://evil.example","x")'
DAY = {"day": "2026-11-10"}
DAILY_TABLES = [
    "summary",
    "tables",
    "stakes",
    "drop",
    "tournaments",
    "shifts",
    "jackpot",
    "claims",
    "aml",
    "tickets",
]


def workbook(response) -> openpyxl.Workbook:
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX_CONTENT_TYPE
    return openpyxl.load_workbook(io.BytesIO(response.content))


def test_amounts_are_number_cells_in_eur_with_two_decimals(client, manager, room):
    client.force_login(manager)
    response = client.get("/reports/", {**DAY, "export": "summary", "format": "xlsx"})
    assert response["Content-Disposition"] == 'attachment; filename="daily-summary.xlsx"'
    sheet = workbook(response)["summary"]
    assert [c.value for c in sheet[1]][:4] == ["venue", "period", "rake", "fees"]
    row = sheet[2]
    assert [c.value for c in row] == [
        "Card Room",
        "2026-11-10",
        20.5,
        60,
        460,
        -380,
        2,
        1.5,
        -0.5,
        540,
        800,
        60,
    ]
    assert [c.data_type for c in row] == ["s", "s", *["n"] * 10]
    assert {c.number_format for c in row[2:]} == {"#,##0.00"}
    assert sheet.freeze_panes == "A2"
    assert sheet.max_row == 2


def test_times_are_date_cells_in_the_venues_local_time_named_in_the_header(client, manager, room):
    client.force_login(manager)
    sheet = workbook(client.get("/reports/", {**DAY, "export": "drop", "format": "xlsx"}))["drop"]
    assert [c.value for c in sheet[1]] == [
        "venue",
        "table",
        "from (Europe/Bratislava)",
        "until (Europe/Bratislava)",
        "hands_raked",
        "expected",
        "counted",
        "variance",
        "counted_by",
        "note",
    ]
    first = sheet[2]
    assert [c.value for c in first[:9]] == [
        "Card Room",
        1,
        datetime(2026, 11, 10, 12, 0),
        datetime(2026, 11, 10, 23, 30),
        3,
        7.5,
        7,
        -0.5,
        "cashier1",
    ]
    assert first[2].is_date and first[2].number_format == "yyyy-mm-dd hh:mm"
    assert (first[1].data_type, first[4].data_type, first[4].number_format) == ("n", "n", "General")
    # The last drop box of the day closed at 06:00 local time on the 11th (05:00 UTC).
    assert sheet[3][3].value == datetime(2026, 11, 11, 6, 0)


def test_a_player_named_like_a_formula_stays_text(client, manager, room):
    player = room.players["E"]
    player_update(actor=manager, player=player, first_name=FORMULA, now=at(9))
    client.force_login(manager)
    response = client.get(
        "/reports/aml/", {"start": "2026-11-10", "end": "2026-11-11", "export": "aml", "format": "xlsx"}
    )
    sheet = workbook(response)["aml"]
    row = sheet[2]
    assert [c.value for c in row] == [
        "Card Room",
        datetime(2026, 11, 10, 0, 0),
        player.card_number,
        f"{FORMULA} E",
        2000,
        1,
        True,
        "ID card",
    ]
    assert row[1].is_date and row[1].number_format == "yyyy-mm-dd"
    assert (row[3].data_type, row[3].quotePrefix) == ("s", True)
    assert (row[4].data_type, row[4].number_format) == ("n", "#,##0.00")
    assert row[6].data_type == "b"
    # No formula anywhere in the file: the name is stored as text, not as <f>.
    xml = zipfile.ZipFile(io.BytesIO(response.content)).read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "HYPERLINK" in xml
    # The column is as wide as the name (plus a margin), the header's column too.
    assert sheet.column_dimensions["D"].width == len(f"{FORMULA} E") + 2
    assert sheet.column_dimensions["A"].width == len("Card Room") + 2


def _csv_text(cell) -> str:
    """An XLSX cell as the CSV writes the same value."""
    value = cell.value
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if cell.number_format == "#,##0.00":
        return f"{Decimal(str(value)):.2f}"
    if isinstance(value, datetime):
        return (
            value.date().isoformat()
            if cell.number_format == "yyyy-mm-dd"
            else value.isoformat(timespec="minutes")
        )
    return str(value)


def test_the_whole_report_is_one_workbook_a_sheet_per_table_of_the_csv_rows(client, manager, room):
    client.force_login(manager)
    response = client.get("/reports/", {**DAY, "export": "all", "format": "xlsx"})
    assert response["Content-Disposition"] == 'attachment; filename="daily-all.xlsx"'
    book = workbook(response)
    assert book.sheetnames == DAILY_TABLES
    for name in DAILY_TABLES:
        sheet = book[name]
        assert sheet.freeze_panes == "A2", name
        text = client.get("/reports/", {**DAY, "export": name}).content.decode().removeprefix("\ufeff")
        csv_rows = list(csv.reader(io.StringIO(text)))
        xlsx_rows = [[_csv_text(c) for c in row] for row in sheet.iter_rows(min_row=2)]
        assert len(xlsx_rows) == len(csv_rows) - 1, name
        for xlsx_row, csv_row in zip(xlsx_rows, csv_rows[1:], strict=True):
            # A CSV time carries its offset (+01:00); the XLSX cell is the same local time.
            assert [c[:16] if "T" in c else c for c in csv_row] == xlsx_row, name
    record = AuditRecord.objects.filter(action="report.export").order_by("pk").first()
    assert record.object_id == "daily:all"
    assert record.actor == manager
    assert record.after == {
        "query": "day=2026-11-10&export=all&format=xlsx",
        "filters": {"day": "2026-11-10"},
        "rows": sum(book[name].max_row - 1 for name in DAILY_TABLES if book[name].max_row > 1),
        "format": "xlsx",
    }


def test_every_csv_link_has_an_excel_link_beside_it(client, manager, room):
    client.force_login(manager)
    pages = {
        "/reports/": DAY,
        "/reports/range/": {"start": "2026-11-10", "end": "2026-11-11"},
        "/reports/players/": {"start": "2026-11-10", "end": "2026-11-11"},
        "/reports/aml/": {"start": "2026-11-10", "end": "2026-11-11"},
    }
    for page, query in pages.items():
        html = client.get(page, query).content.decode()
        assert html.count(">CSV</a>") == html.count(">Excel</a>") > 0, page
        assert "export=all&amp;format=xlsx" in html, page
    for query in ({"export": "tables", "format": "xlsx"}, {"export": "all", "format": "xlsx"}):
        assert workbook(client.get("/reports/range/", {"start": "2026-11-10", "end": "2026-11-11", **query}))


def test_who_may_not_have_the_csv_may_not_have_the_xlsx__ROL_1(client, floor, cashier, room):
    for user in (floor, cashier):
        client.force_login(user)
        for query in ({"export": "summary", "format": "xlsx"}, {"export": "all", "format": "xlsx"}):
            assert client.get("/reports/", {**DAY, **query}).status_code == 403
    assert not AuditRecord.objects.filter(action="report.export").exists()


def test_an_unknown_format_or_table_is_the_page_and_nothing_is_logged(client, manager, room):
    client.force_login(manager)
    for query in (
        {"export": "summary", "format": "ods"},
        {"export": "all"},
        {"export": "nothing", "format": "xlsx"},
    ):
        assert client.get("/reports/", {**DAY, **query})["Content-Type"].startswith("text/html")
    assert not AuditRecord.objects.filter(action="report.export").exists()
