"""The report pages: managers only (ROL-1), every table exportable as CSV and every export
audited, a printable layout, EUR with two decimals, times in the venue's zone."""

import pytest

from cardroom.models import AuditRecord
from reports.services import rollup_build_missing
from tests.reports.known_day import at

pytestmark = pytest.mark.django_db
PAGES = {
    "/reports/": {"day": "2026-11-10"},
    "/reports/range/": {"start": "2026-11-10", "end": "2026-11-11", "group": "day"},
    "/reports/players/": {"start": "2026-11-10", "end": "2026-11-11", "order": "name"},
    "/reports/aml/": {"start": "2026-11-10", "end": "2026-11-11"},
}
EXPORTS = {
    "/reports/": ["summary", "tables", "stakes", "drop", "tournaments", "shifts", "jackpot", "claims", "aml"],
    "/reports/range/": [
        "periods",
        "comparison",
        "stakes",
        "tables",
        "tournaments",
        "series",
        "jackpot",
        "claims",
    ],
    "/reports/players/": ["players"],
    "/reports/aml/": ["aml"],
}


def test_reports_are_for_managers_only__ROL_1(client, cashier, floor, manager):
    for user in (cashier, floor):
        client.force_login(user)
        for page in PAGES:
            assert client.get(page).status_code == 403
    client.force_login(manager)
    for page in PAGES:
        assert client.get(page).status_code == 200
    client.logout()
    assert client.get("/reports/").status_code == 302


def test_pages_show_the_known_day(client, manager, room):
    rollup_build_missing(now=at(12, day=12))
    client.force_login(manager)
    daily = client.get("/reports/", PAGES["/reports/"]).content.decode()
    for text in (
        "Cash games per table",
        "NLHE 1/2",
        "11 h 30 min",  # table 1 open 690 minutes
        "20.50 EUR",  # the day's rake
        "-400.00",  # Daily 50: fees 60.00 less the 460.00 overlay
        "<h2>Drop-box counts <a",  # no rule ID in a heading
        "-0.50",
        "Daily 50",
        "Turbo 20",
        "2,000.00",  # E over the AML threshold
        "data-print",
        "reports/reports.css",
    ):
        assert text in daily, text
    assert "20:00" in daily  # table 2's drop period, in the venue's time
    ranged = client.get("/reports/range/", PAGES["/reports/range/"]).content.decode()
    for text in (
        "<svg",
        "Against the previous period",
        "Tournament profit and loss",
        "Jackpot fund",
        "polyline",
    ):
        assert text in ranged, text


def test_pages_in_slovak(client, manager, room):
    client.force_login(manager)
    response = client.get("/reports/", {**PAGES["/reports/"]}, HTTP_ACCEPT_LANGUAGE="sk")
    assert response.status_code == 200


@pytest.mark.parametrize("page", list(PAGES))
def test_every_table_exports_as_csv_and_is_audited(client, manager, room, page):
    client.force_login(manager)
    for table in EXPORTS[page]:
        response = client.get(page, {**PAGES[page], "export": table})
        assert response["Content-Type"].startswith("text/csv"), table
        assert table in response["Content-Disposition"]
        assert response.content.decode("utf-8").startswith("\ufeff")
    records = AuditRecord.objects.filter(action="report.export").order_by("pk")
    name = {
        "/reports/": "daily",
        "/reports/range/": "range",
        "/reports/players/": "players",
        "/reports/aml/": "aml",
    }
    assert [r.object_id for r in records] == [f"{name[page]}:{table}" for table in EXPORTS[page]]
    assert {r.actor for r in records} == {manager}


def test_csv_figures_are_exact(client, manager, room):
    client.force_login(manager)
    lines = client.get("/reports/", {"day": "2026-11-10", "export": "summary"}).content.decode().splitlines()
    assert lines[1] == "Card Room,2026-11-10,20.50,60.00,460.00,-380.00,2.00,1.50,-0.50,540.00,800.00,60.00"
    tables = client.get("/reports/", {"day": "2026-11-10", "export": "tables"}).content.decode().splitlines()
    assert tables[1] == "Card Room,1,NLHE 1/2,690,5,3,1,1,208.00,7.50,2.00,0.65,1,7.00,7.50,-0.50"
    assert tables[-1] == "Card Room,total,,1530,8,6,1,1,668.00,20.50,2.00,0.80,2,12.00,12.50,-0.50"
    drop = client.get("/reports/", {"day": "2026-11-10", "export": "drop"}).content.decode().splitlines()
    assert drop[2].startswith(
        "Card Room,2,2026-11-10T20:00+01:00,2026-11-11T06:00+01:00,1,5.00,5.00,0.00,cashier2"
    )


def test_range_page_refuses_backwards_range(client, manager):
    client.force_login(manager)
    response = client.get("/reports/range/", {"start": "2026-11-10", "end": "2026-11-01", "group": "day"})
    assert response.status_code == 200
    assert "ends before it starts" in response.content.decode()


def test_range_page_queries_do_not_grow_with_the_data(client, manager, room, django_assert_max_num_queries):
    rollup_build_missing(now=at(12, day=12))
    client.force_login(manager)
    with django_assert_max_num_queries(40):
        assert client.get("/reports/range/", PAGES["/reports/range/"]).status_code == 200
    with django_assert_max_num_queries(40):
        assert client.get("/reports/", PAGES["/reports/"]).status_code == 200


def test_long_range_lists_tournaments_per_series(client, manager, room, monkeypatch):
    monkeypatch.setattr("reports.views.TOURNAMENTS_LISTED", 1)
    client.force_login(manager)
    page = client.get("/reports/range/", PAGES["/reports/range/"]).content.decode()
    assert "2 tournaments, per series; the CSV lists each one." in page
    assert "<h3>Tournaments with an overlay</h3>" in page
    series = client.get("/reports/range/", {**PAGES["/reports/range/"], "export": "series"}).content.decode()
    assert series.splitlines()[1:] == [
        "Card Room,Turbo 20,1,0,3,0,0.00,0.00,0.00,0.00,60.00,0.00,0.00",
        "Card Room,Daily 50,1,1,10,2,540.00,460.00,1000.00,1000.00,0.00,60.00,-400.00",
    ]


def test_aml_page_shows_the_first_rows_and_exports_all(client, manager, room, monkeypatch):
    monkeypatch.setattr("reports.views.AML_LISTED", 0)
    client.force_login(manager)
    page = client.get("/reports/aml/", PAGES["/reports/aml/"]).content.decode()
    # E: 2,000.00 bought in on the 10th, 2,100.00 cashed out on the 11th.
    assert "2 player-days" in page and "(the first 0 shown; the CSV has them all)" in page
    export = client.get("/reports/aml/", {**PAGES["/reports/aml/"], "export": "aml"})
    lines = export.content.decode().splitlines()
    assert [line.split(",", 4)[-1] for line in lines[1:]] == [
        "2000.00,1,True,ID card",
        "2100.00,1,True,ID card",
    ]
