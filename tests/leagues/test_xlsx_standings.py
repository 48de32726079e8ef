"""A league's standings as XLSX beside the CSV (cardroom.spreadsheet): the same rows, numbers as
number cells, a name like a formula as text; both downloads audited (SER-4)."""

import io

import openpyxl
import pytest

from cardroom.models import AuditRecord
from cardroom.spreadsheet import XLSX_CONTENT_TYPE
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
FORMULA = '=HYPERLINK("http://evil.example","x")'


def test_standings_xlsx_has_the_csvs_rows_as_typed_cells__SER_4(client, manager, people, play, make_league):
    p = people
    sly = PlayerFactory(first_name=FORMULA, last_name="X", nickname="")
    league = make_league([play([p["Bob"], sly, p["Ann"]], day=0)], best_n=3)
    client.force_login(manager)
    response = client.get(f"/leagues/{league.pk}/standings.xlsx")
    assert response["Content-Type"] == XLSX_CONTENT_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="spring-league-standings.xlsx"'
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["standings"]
    sheet = book["standings"]
    assert sheet.freeze_panes == "A2"
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [
        ["Rank", "Player", "Points", "Best finish", "Results", "Counted"],
        [1, "Ann Test", 17, 1, 1, 1],
        [2, f"{FORMULA} X", 12, 2, 1, 1],
        [3, "Bob Test", 10, 3, 1, 1],
    ]
    assert [c.data_type for c in sheet[3]] == ["n", "s", "n", "n", "n", "n"]
    assert sheet["B3"].quotePrefix is True
    client.get(f"/leagues/{league.pk}/standings.csv")
    records = AuditRecord.objects.filter(action="report.export").order_by("pk")
    assert [(r.object_type, r.object_id, r.actor, r.after) for r in records] == [
        ("league", str(league.pk), manager, {"rows": 3, "format": "xlsx"}),
        ("league", str(league.pk), manager, {"rows": 3, "format": "csv"}),
    ]
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/leagues/{league.pk}/standings.xlsx">Excel</a>' in page
