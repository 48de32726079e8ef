"""A blind structure as XLSX beside its CSV and JSON (cardroom.spreadsheet): chips and minutes
as number cells, the big blind ante as a true/false cell, a note like a formula as text; for the
floor and managers as the CSV (ROL-1)."""

import io

import openpyxl
import pytest

from cardroom.spreadsheet import XLSX_CONTENT_TYPE
from tournaments.services.structures import structure_create

pytestmark = pytest.mark.django_db
FORMULA = '=HYPERLINK("http://evil.example","x")'


def test_a_structure_exports_as_typed_xlsx_cells(client, floor, cashier, manager):
    levels = [
        {"kind": "level", "small_blind_chips": 25, "big_blind_chips": 50, "ante_chips": 0},
        {"kind": "break", "small_blind_chips": 0, "big_blind_chips": 0, "ante_chips": 0},
        {"kind": "level", "small_blind_chips": 50, "big_blind_chips": 100, "ante_chips": 100},
    ]
    levels = [
        {**level, "big_blind_ante": i == 2, "minutes": 20 if level["kind"] == "level" else 10, "note": ""}
        for i, level in enumerate(levels)
    ]
    levels[1]["note"] = FORMULA
    structure = structure_create(actor=manager, name="Weekly Deep", levels=levels)
    client.force_login(floor)
    response = client.get(f"/tournaments/structures/{structure.pk}/export.xlsx")
    assert response["Content-Type"] == XLSX_CONTENT_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="weekly-deep.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))["levels"]
    assert sheet.freeze_panes == "A2"
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [
        ["kind", "small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante", "minutes", "note"],
        ["level", 25, 50, 0, False, 20, None],
        ["break", 0, 0, 0, False, 10, FORMULA],
        ["level", 50, 100, 100, True, 20, None],
    ]
    assert [c.data_type for c in sheet[4]][1:6] == ["n", "n", "n", "b", "n"]
    assert (sheet["G3"].data_type, sheet["G3"].quotePrefix) == ("s", True)
    assert client.get(f"/api/structures/{structure.pk}/export/xlsx/")["Content-Type"] == XLSX_CONTENT_TYPE
    page = client.get(f"/tournaments/structures/{structure.pk}/").content.decode()
    assert f'href="/tournaments/structures/{structure.pk}/export.xlsx">Excel</a>' in page
    client.force_login(cashier)
    assert client.get(f"/tournaments/structures/{structure.pk}/export.xlsx").status_code == 403
