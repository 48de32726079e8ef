"""Reports of an operator with two venues (VEN-1): each venue's reports read its own rows and its
own gaming day, the rollups and the ledger's closed days are built per venue, the consolidated
report is exactly the sum of the venues' figures (the jackpot funds per venue), open only to a
manager of every venue it covers, and every CSV row names its venue."""

import csv
import io
from unittest import mock

import pytest

from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.venues import SESSION_VENUE, venue_activate, venue_default
from cashier.models import AccountKind, LedgerDay
from cashier.services import account_for, ledger_post
from cashier.tasks import ledger_days_close
from reports.models import RolledUpDay, TableDayTotal
from reports.selectors import aml_list, daily_report, player_activity, range_report
from reports.selectors.operator import operator_daily_report, operator_range_report
from reports.tasks import rollup_missing
from tests.conftest import make_staff
from tests.reports import venue_two
from tests.reports.known_day import DAY, NEXT
from tests.reports.test_daily_report import assert_known_day

pytestmark = pytest.mark.django_db
LATER = venue_two.at(12, day=12)  # 12:00 on the 12th: the 9th, 10th and 11th have ended everywhere


def figures(report) -> tuple:
    f = report.figures
    return (f.rake, f.fees, f.overlay, f.cash_variance, f.prize_contributions, f.prizes_paid, f.refunds)


@pytest.fixture
def boss(room):
    """A manager of both venues (the known day's and Casino Two)."""
    return make_staff("boss", Role.MANAGER)


@pytest.fixture(scope="module")
def _two(_known_day, django_db_blocker):
    """Casino Two's day, built once per module after the known day and rolled back with it
    (tests/reports/conftest.py): each test runs in its own savepoint within that transaction."""
    with django_db_blocker.unblock():
        return venue_two.build(
            manager=make_staff("boss", Role.MANAGER),
            floor=make_staff("floor1"),
            cashier=make_staff("cashier1"),
        )


@pytest.fixture
def two(_two, room, boss):
    return _two


def assert_two_day(report) -> None:
    """Casino Two's 10th (08:00 on the 10th to 08:00 on the 11th, Prague)."""
    assert figures(report) == (500, 3_000, 23_000, -100, 27_000, 50_000, 0)
    assert (report.figures.jackpot_drops, report.jackpot_opening, report.jackpot_closing) == (0, 0, 0)
    [table] = report.cash.tables
    assert (table.table_number, table.hands, table.rake_cents, table.drop_variance_cents) == (1, 1, 500, 50)
    [tournament] = report.tournaments.lines
    assert (tournament.tournament.name, tournament.fees_cents, tournament.overlay_cents) == (
        "Prague 100",
        3_000,
        23_000,
    )
    assert report.shifts == []  # opened at 06:30 on the 10th: Casino Two's 9th
    [aml] = report.aml
    assert (aml.name.split()[-1], aml.total_cents, aml.transactions) == ("Z", 500_000, 2)


def assert_two_eve(report) -> None:
    """Casino Two's 9th: what it did from 06:30 to 08:00 on the 10th, before its day's start."""
    assert figures(report) == (200, 0, 0, 0, 0, 0, 0)
    [table] = report.cash.tables
    assert (table.hands, table.rake_cents) == (1, 200)
    [shift] = report.shifts
    assert (shift.transactions, shift.cash_in, shift.cash_out, shift.shift.variance_cents) == (
        10,
        300_000,
        319_300,
        -100,
    )
    assert report.aml == []


def test_each_venues_daily_report_reads_its_own_rows_and_gaming_day_VEN_1(two):
    with venue_activate(venue_default()):
        assert_known_day(daily_report(day=DAY, now=LATER))
        # The known venue's day starts at 06:00: nothing of Casino Two's 06:30-08:00 in its 9th.
        assert figures(daily_report(day=venue_two.EVE, now=LATER)) == (0,) * 7
    with venue_activate(two.venue):
        assert_two_day(daily_report(day=venue_two.DAY, now=LATER))
        assert_two_eve(daily_report(day=venue_two.EVE, now=LATER))


def test_rollups_and_closed_ledger_days_are_built_per_venue_by_the_beat_tasks_VEN_1(two):
    with mock.patch("django.utils.timezone.now", return_value=LATER):
        # Sent by beat with no venue: each runs once per venue (cardroom.celery.RoomTask).
        assert ledger_days_close() == 2 + 3
        assert rollup_missing() == 2 + 3
    assert sorted(LedgerDay.all_venues.values_list("venue__slug", "day")) == sorted(
        [
            (venue_default().slug, DAY),
            (venue_default().slug, NEXT),
            ("two", venue_two.EVE),
            ("two", DAY),
            ("two", NEXT),
        ]
    )
    assert RolledUpDay.all_venues.filter(venue=two.venue).count() == 3
    with venue_activate(two.venue):
        rows = TableDayTotal.objects.order_by("day")
        assert [(r.day, r.table_id, r.hands, r.rake_cents) for r in rows] == [
            (venue_two.EVE, two.tables[1].pk, 1, 200),
            (venue_two.DAY, two.tables[1].pk, 1, 500),
        ]
        assert_two_day(daily_report(day=venue_two.DAY, now=LATER))
        assert_two_eve(daily_report(day=venue_two.EVE, now=LATER))
    with venue_activate(venue_default()):
        assert_known_day(daily_report(day=DAY, now=LATER))


def test_a_backdated_posting_reopens_only_its_own_venues_day_VEN_1(two):
    with mock.patch("django.utils.timezone.now", return_value=LATER):
        ledger_days_close()
    with venue_activate(two.venue):
        ledger_post(
            lines=[
                (account_for(kind=AccountKind.CASH_VARIANCE), 100),
                (account_for(kind=AccountKind.VAULT), -100),
            ],
            description="correction",
            now=venue_two.at(7, 30),  # Casino Two's 9th (the known venue's 10th)
        )
    assert sorted(LedgerDay.all_venues.values_list("venue__slug", "day")) == sorted(
        [(venue_default().slug, DAY), (venue_default().slug, NEXT), ("two", DAY), ("two", NEXT)]
    )


def test_range_and_aml_reports_per_venue_VEN_1(two):
    with venue_activate(venue_default()):
        known = range_report(start=DAY, end=NEXT, now=LATER)
        assert [line.name.split()[-1] for line in aml_list(start=DAY, end=NEXT, now=LATER)] == ["E", "E"]
    with venue_activate(two.venue):
        second = range_report(start=venue_two.EVE, end=DAY, now=LATER)
        assert [line.name.split()[-1] for line in aml_list(start=DAY, end=NEXT, now=LATER)] == ["Z"]
    assert (known.total.rake, known.total.fees, known.total.overlay) == (2_050 + 50, 6_000, 46_000)
    assert (second.total.rake, second.total.fees, second.total.overlay) == (700, 3_000, 23_000)
    assert second.total.cash_variance == -100
    # Player activity: each venue's players only (the register is shared, the activity is not).
    with venue_activate(two.venue):
        activity = player_activity(start=venue_two.EVE, end=NEXT, now=LATER)
    assert sorted(line.name.split()[-1] for line in activity.lines) == ["R1", "R2", "R3", "X", "Y", "Z"]
    assert [line.cash_game_in_cents for line in activity.lines if line.name.endswith(" Z")] == [250_000]
    with venue_activate(venue_default()):
        known_players = player_activity(start=venue_two.EVE, end=NEXT, now=LATER)
    assert known_players.count == 8 + 10 + 3 and not {"X", "Y", "Z"} & {
        line.name.split()[-1] for line in known_players.lines
    }


def test_consolidated_figures_are_the_sum_of_the_venues_VEN_1(two):
    one = venue_default()
    report = operator_daily_report(day=DAY, venues=[one, two.venue], now=LATER)
    known, second = report.venues
    assert (known.venue, second.venue) == (one, two.venue)

    def line(f):
        return (
            f.rake,
            f.fees,
            f.overlay,
            f.cash_variance,
            f.drop_variance,
            f.aml_count,
            f.house_result,
        )

    assert line(known) == (2_050, 6_000, 46_000, -50, -50, 1, -38_000)
    assert line(second) == (500, 3_000, 23_000, -100, 50, 1, -19_600)
    assert line(report.total) == (2_550, 9_000, 69_000, -150, 0, 2, -57_600)
    for name in (
        "rake",
        "fees",
        "overlay",
        "cash_variance",
        "drop_variance",
        "prizes_paid",
        "refunds",
        "aml_count",
    ):
        assert getattr(report.total, name) == getattr(known, name) + getattr(second, name), name
    # The jackpot funds stay per venue: the total has none.
    assert (known.jackpot.opening, known.jackpot.drops, known.jackpot.payouts, known.jackpot.closing) == (
        0,
        200,
        150,
        50,
    )
    assert (second.jackpot.closing, report.total.jackpot) == (0, None)
    # Each venue's own report gives the same figures.
    with venue_activate(two.venue):
        assert figures(daily_report(day=DAY, now=LATER))[:4] == (500, 3_000, 23_000, -100)

    ranged = operator_range_report(start=venue_two.EVE, end=NEXT, venues=[one, two.venue], now=LATER)
    assert [(v.rake, v.fees, v.overlay, v.aml_count) for v in ranged.venues] == [
        (2_100, 6_000, 46_000, 2),
        (700, 3_000, 23_000, 1),
    ]
    assert (ranged.total.rake, ranged.total.fees, ranged.total.overlay, ranged.total.aml_count) == (
        2_800,
        9_000,
        69_000,
        3,
    )


def rows(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8").removeprefix("\ufeff"))))


def test_consolidated_page_and_csv_for_a_manager_of_both_venues_VEN_1(client, boss, two):
    client.force_login(boss)
    session = client.session
    session[SESSION_VENUE] = venue_default().pk
    session.save()
    daily = client.get("/reports/", {"day": "2026-11-10"}).content.decode()
    assert 'href="/reports/operator/"' in daily
    page = client.get("/reports/operator/", {"day": "2026-11-10"})
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("Card Room", "Casino Two", "25.50", "90.00", "690.00", "Jackpot fund per venue"):
        assert text in html, text
    summary = rows(client.get("/reports/operator/", {"day": "2026-11-10", "export": "summary"}))
    assert summary[0][:4] == ["venue", "start", "end", "rake"]
    assert [line[0] for line in summary[1:]] == ["Card Room", "Casino Two", "total"]
    assert [line[3:6] for line in summary[1:]] == [
        ["20.50", "60.00", "460.00"],
        ["5.00", "30.00", "230.00"],
        ["25.50", "90.00", "690.00"],
    ]
    assert [line[-1] for line in summary[1:]] == ["1", "1", "2"]
    jackpot = rows(client.get("/reports/operator/", {"day": "2026-11-10", "export": "jackpot"}))
    assert jackpot[1:] == [
        ["Card Room", "0.00", "2.00", "1.50", "0.50"],
        ["Casino Two", "0.00", "0.00", "0.00", "0.00"],
    ]
    aml = rows(client.get("/reports/operator/", {"day": "2026-11-10", "export": "aml"}))
    assert [(line[0], line[3].split()[-1], line[4]) for line in aml[1:]] == [
        ("Card Room", "E", "2000.00"),
        ("Casino Two", "Z", "5000.00"),
    ]
    export = AuditRecord.all_venues.filter(action="report.export").order_by("pk")
    assert [r.object_id for r in export] == [
        "operator-daily:summary",
        "operator-daily:jackpot",
        "operator-daily:aml",
    ]
    # One venue asked for by its address name; the range page too.
    only = client.get("/reports/operator/", {"day": "2026-11-10", "venue": "two", "export": "summary"})
    assert [line[0] for line in rows(only)[1:]] == ["Casino Two", "total"]
    assert (
        client.get("/reports/operator/range/", {"start": "2026-11-09", "end": "2026-11-11"}).status_code
        == 200
    )
    slovak = client.get("/reports/operator/", {"day": "2026-11-10"}, HTTP_ACCEPT_LANGUAGE="sk")
    assert "Súhrnný prehľad" in slovak.content.decode()
    assert "Jackpotový fond podľa prevádzok" in slovak.content.decode()


def test_consolidated_report_refused_to_a_manager_of_one_venue_VEN_1(client, manager, boss, two):
    client.force_login(manager)  # manager1: the known venue's only
    daily = client.get("/reports/", {"day": "2026-11-10"}).content.decode()
    assert "/reports/operator/" not in daily
    before = AuditRecord.all_venues.count()
    for params in ({"day": "2026-11-10"}, {"day": "2026-11-10", "export": "summary"}):
        response = client.get("/reports/operator/", params)
        assert response.status_code == 403
        assert "more than one venue" in response.content.decode()
    assert client.get("/reports/operator/range/").status_code == 403
    assert AuditRecord.all_venues.count() == before


def test_consolidated_report_refuses_a_venue_the_manager_does_not_manage_VEN_1(client, boss, two):
    from cardroom.models import Venue

    Venue.objects.create(name="Casino Three", slug="three")
    client.force_login(boss)
    before = AuditRecord.all_venues.count()
    for slug in ("three", "nowhere"):
        response = client.get("/reports/operator/", {"day": "2026-11-10", "venue": slug, "export": "summary"})
        assert response.status_code == 403
        assert "Casino Three" not in response.content.decode()
    assert AuditRecord.all_venues.count() == before


def test_every_report_csv_names_the_venue_VEN_1(client, boss, two):
    client.force_login(boss)
    for venue, name in ((venue_default(), "Card Room"), (two.venue, "Casino Two")):
        session = client.session
        session[SESSION_VENUE] = venue.pk
        session.save()
        for page, params, table in (
            ("/reports/", {"day": "2026-11-10"}, "summary"),
            ("/reports/", {"day": "2026-11-10"}, "tables"),
            ("/reports/range/", {"start": "2026-11-10", "end": "2026-11-11", "group": "day"}, "periods"),
            ("/reports/players/", {"start": "2026-11-10", "end": "2026-11-11", "order": "name"}, "players"),
            ("/reports/aml/", {"start": "2026-11-10", "end": "2026-11-11"}, "aml"),
        ):
            lines = rows(client.get(page, {**params, "export": table}))
            assert lines[0][0] == "venue"
            assert len(lines) > 1 and {line[0] for line in lines[1:]} == {name}, (page, table)
    # Each venue's figures in its own file.
    summary = rows(client.get("/reports/", {"day": "2026-11-10", "export": "summary"}))
    assert summary[1][:4] == ["Casino Two", "2026-11-10", "5.00", "30.00"]


def test_a_venue_in_another_time_zone_closes_its_own_gaming_days_VEN_1(db):
    from cardroom.models import Venue
    from cashier.models import AccountDayTotal

    london = Venue.objects.create(name="Casino London", slug="london", time_zone="Europe/London")
    moment = venue_two.at(6, 30)  # 06:30 in Prague and Bratislava, 05:30 in London
    with venue_activate(london):
        ledger_post(
            lines=[
                (account_for(kind=AccountKind.CASH_VARIANCE), 100),
                (account_for(kind=AccountKind.VAULT), -100),
            ],
            description="London's night",
            now=moment,
        )
    with mock.patch("django.utils.timezone.now", return_value=LATER):
        ledger_days_close()
        rollup_missing()
    # London's gaming day starts at 06:00 London time: 05:30 there is still its 9th.
    assert list(LedgerDay.all_venues.filter(venue=london).values_list("day", flat=True).order_by("day")) == [
        venue_two.EVE,
        DAY,
        NEXT,
    ]
    assert [
        (row.day, row.debit_cents + row.credit_cents)
        for row in AccountDayTotal.all_venues.filter(venue=london).order_by("day", "account__kind")
    ] == [(venue_two.EVE, 100), (venue_two.EVE, 100)]
    assert RolledUpDay.all_venues.filter(venue=london).count() == 3
