"""The reports' CSV files are safe to open in a spreadsheet (cardroom.spreadsheet): a player
named like a formula is text, an amount is a number, negative ones too; and the CSV link of a
report page opened without dates is the file of the page's default period."""

import csv
import io
import re
from decimal import Decimal
from unittest import mock

import pytest

from cardroom.models import AuditRecord
from players.services import player_update
from tests.reports.known_day import at

pytestmark = pytest.mark.django_db
FORMULA = '=HYPERLINK("http://evil.example/?steal","Claim your prize")'


def rows(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8").removeprefix("\ufeff"))))


def test_a_player_named_like_a_formula_is_text_in_every_csv(client, manager, room):
    player = room.players["E"]
    player_update(actor=manager, player=player, first_name=FORMULA, now=at(9))
    client.force_login(manager)
    aml = rows(client.get("/reports/aml/", {"start": "2026-11-10", "end": "2026-11-11", "export": "aml"}))
    assert aml[1] == [
        "Card Room",
        "2026-11-10",
        player.card_number,
        f"'{FORMULA} E",
        "2000.00",
        "1",
        "True",
        "ID card",
    ]
    assert aml[2] == [
        "Card Room",
        "2026-11-11",
        player.card_number,
        f"'{FORMULA} E",
        "2100.00",
        "1",
        "True",
        "ID card",
    ]
    activity = rows(
        client.get(
            "/reports/players/",
            {"start": "2026-11-10", "end": "2026-11-10", "player": "E", "export": "players"},
        )
    )
    assert [line[2] for line in activity[1:]] == [f"'{FORMULA} E"]
    # Nothing else in the file starts a formula: every cell is a number, a date or plain text.
    for line in aml + activity:
        for cell in line:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell


def test_a_negative_amount_stays_a_number(client, manager, room):
    client.force_login(manager)
    summary = rows(client.get("/reports/", {"day": "2026-11-10", "export": "summary"}))
    assert summary[0][5] == "house_result" and summary[0][8] == "cash_variance"
    assert summary[1][5] == "-380.00"  # not '-380.00: a spreadsheet adds it up
    assert summary[1][8] == "-0.50"
    assert Decimal(summary[1][5]) + Decimal(summary[1][8]) == Decimal("-380.50")
    raw = client.get("/reports/", {"day": "2026-11-10", "export": "summary"}).content.decode()
    assert ",-380.00,2.00,1.50,-0.50," in raw  # unquoted, as numbers are written


def test_the_csv_link_of_a_page_opened_without_dates_is_the_default_periods_file(client, manager, room):
    client.force_login(manager)
    with mock.patch("django.utils.timezone.now", return_value=at(12)):  # the gaming day 2026-11-10
        page = client.get("/reports/").content.decode()
        links = re.findall(r'href="(\?export=[a-z]+)"', page)
        assert "?export=summary" in links
        summary = client.get("/reports/" + "?export=summary")
    assert rows(summary)[1] == [
        "Card Room",
        "2026-11-10",
        "20.50",
        "60.00",
        "460.00",
        "-380.00",
        "2.00",
        "1.50",
        "-0.50",
        "540.00",
        "800.00",
        "60.00",
    ]
    record = AuditRecord.objects.get(action="report.export")
    assert record.object_id == "daily:summary"
    assert record.after == {
        "query": "export=summary",
        "filters": {"day": "2026-11-10"},
        "rows": 1,
        "format": "csv",
    }


def test_the_range_pages_csv_without_dates_covers_the_last_thirty_days(client, manager, room):
    client.force_login(manager)
    with mock.patch("django.utils.timezone.now", return_value=at(12, day=11)):
        page = client.get("/reports/range/").content.decode()
        assert 'href="?export=periods"' in page
        periods = rows(client.get("/reports/range/?export=periods"))
    assert periods[1][:2] == ["Card Room", "2026-10-13"]
    assert [line[1] for line in periods[-4:-2]] == ["2026-11-10", "2026-11-11"]
    assert periods[-4][2:4] == ["20.50", "60.00"]
    record = AuditRecord.objects.get(action="report.export")
    assert record.after["filters"] == {"start": "2026-10-13", "end": "2026-11-11", "group": "day"}


def test_an_explicitly_empty_date_is_still_an_error_not_a_default(client, manager, room):
    client.force_login(manager)
    response = client.get("/reports/", {"day": "", "export": "summary"})
    assert response["Content-Type"].startswith("text/html")
    assert "This field is required." in response.content.decode()
    assert not AuditRecord.objects.filter(action="report.export").exists()
