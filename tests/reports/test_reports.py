from datetime import date

import pytest
from django.db.models import Sum

from cardroom.models import AuditRecord
from cashier.models import AccountKind, Entry
from cashier.services import (
    account_for,
    cash_buy_in,
    cash_out,
    jackpot_payout,
    ledger_post,
    prize_payout,
    shift_close,
    shift_open,
    tournament_payment,
)
from players.services import player_verify_id
from reports.models import AccountDayTotal, RolledUpDay
from reports.selectors import daily_report, range_report
from reports.services import rollup_build_day, rollup_build_missing
from tests.cashier.conftest import at, key
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 10)  # gaming day 10 Nov 06:00 - 11 Nov 06:00, Europe/Bratislava


@pytest.fixture
def known_day(cashier):
    """One gaming day of a small room, every figure chosen by hand."""
    shift = shift_open(actor=cashier, opening_float_cents=100_000, now=at(10))
    alice, bob = PlayerFactory(), PlayerFactory()
    cash_buy_in(
        actor=cashier,
        shift=shift,
        player=alice,
        amount_cents=30_000,
        reference="table:1",
        idempotency_key=key(),
        now=at(11),
    )
    cash_buy_in(
        actor=cashier,
        shift=shift,
        player=bob,
        amount_cents=20_000,
        reference="table:1",
        idempotency_key=key(),
        now=at(11, 5),
    )
    chips = account_for(kind=AccountKind.CHIPS_IN_PLAY, owner="table:1")
    # Two raked hands and their jackpot drops, as the hand log posts them.
    for minute, rake in ((20, 500), (40, 350)):
        ledger_post(
            lines=[
                (chips, rake + 100),
                (account_for(kind=AccountKind.RAKE_REVENUE), -rake),
                (account_for(kind=AccountKind.JACKPOT_FUND), -100),
            ],
            description="hand",
            now=at(12, minute),
        )
    cash_out(
        actor=cashier,
        shift=shift,
        player=alice,
        amount_cents=41_000,
        reference="table:1",
        idempotency_key=key(),
        now=at(23, 30),
    )
    for player in (alice, bob):
        tournament_payment(
            actor=cashier,
            shift=shift,
            player=player,
            kind="tournament_buy_in",
            tournament_id=3,
            prize_cents=9_000,
            fee_cents=1_000,
            idempotency_key=key(),
            now=at(19),
        )
    # The guarantee of 200 EUR held with 180 EUR collected: 20 EUR overlay.
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.OVERLAY_EXPENSE), 2_000),
            (account_for(kind=AccountKind.PRIZE_POOL, owner="tournament:3"), -2_000),
        ],
        description="overlay",
        now=at(22),
    )
    prize_payout(
        actor=cashier,
        shift=shift,
        player=bob,
        tournament_id=3,
        amount_cents=20_000,
        idempotency_key=key(),
        now=at(2, day=11),
    )
    jackpot_payout(
        actor=cashier, shift=shift, player=bob, amount_cents=150, idempotency_key=key(), now=at(3, day=11)
    )
    # Next gaming day (after 06:00): must not count.
    cash_buy_in(
        actor=cashier,
        shift=shift,
        player=bob,
        amount_cents=5_000,
        reference="table:1",
        idempotency_key=key(),
        now=at(7, day=11),
    )
    shift_close(actor=cashier, shift=shift, counted_cents=113_800, now=at(8, day=11))
    return shift


def assert_known_figures(report):
    f = report.figures
    assert (f.rake, f.fees, f.overlay) == (850, 2_000, 2_000)
    assert (f.jackpot_drops, f.jackpot_payouts) == (200, 150)
    assert (f.prize_contributions, f.prizes_paid) == (18_000 + 2_000, 20_000)
    assert f.house_result == 850 + 2_000 - 2_000
    assert (report.jackpot_opening, report.jackpot_closing) == (0, 50)
    assert report.prize_pools == [{"tournament": "tournament:3", "collected": 20_000, "paid": 20_000}]


def test_daily_report_figures_exact(known_day):
    report = daily_report(day=DAY)
    assert_known_figures(report)
    [line] = report.shifts
    # The shift runs into the next gaming day: its line covers the whole shift.
    assert (line.transactions, line.cash_in, line.cash_out) == (8, 75_000, 61_150)
    assert (line.shift.expected_cents, line.shift.counted_cents, line.shift.variance_cents) == (
        113_850,
        113_800,
        -50,
    )
    assert report.aml == []


def test_rollups_give_the_same_report_as_the_ledger(known_day):
    live = daily_report(day=DAY)
    assert rollup_build_missing(now=at(12, day=12)) == [DAY, date(2026, 11, 11)]
    assert RolledUpDay.objects.filter(day=DAY).exists()
    rolled = daily_report(day=DAY)
    assert rolled.figures == live.figures
    assert_known_figures(rolled)
    # Each rollup row is the sum of that account's raw entries of the day.
    for row in AccountDayTotal.objects.filter(day=DAY):
        entries = Entry.objects.filter(
            account=row.account, created_at__gte=at(6), created_at__lt=at(6, day=11)
        )
        assert row.debit_cents == (
            entries.filter(amount_cents__gt=0).aggregate(s=Sum("amount_cents"))["s"] or 0
        )
        assert row.credit_cents == -(
            entries.filter(amount_cents__lt=0).aggregate(s=Sum("amount_cents"))["s"] or 0
        )


def test_rollup_refuses_a_day_not_over(known_day):
    from cardroom.errors import DomainError

    with pytest.raises(DomainError):
        rollup_build_day(day=DAY, now=at(23, day=10))
    assert AccountDayTotal.objects.count() == 0


def test_backdated_posting_reopens_the_days_rollup(known_day):
    rollup_build_missing(now=at(12, day=12))
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.CHIPS_IN_PLAY, owner="table:1"), 50),
            (account_for(kind=AccountKind.RAKE_REVENUE), -50),
        ],
        description="late",
        now=at(13),
    )
    assert not RolledUpDay.objects.filter(day=DAY).exists()
    assert daily_report(day=DAY).figures.rake == 900


def test_range_report_groups_and_compares(known_day):
    report = range_report(start=date(2026, 11, 9), end=date(2026, 11, 11), group="day")
    assert [p.label for p in report.periods] == ["2026-11-09", "2026-11-10", "2026-11-11"]
    assert [p.rake for p in report.periods] == [0, 850, 0]
    assert report.total.fees == 2_000
    assert report.previous.rake == 0
    assert report.jackpot_closing == [
        (date(2026, 11, 9), 0),
        (date(2026, 11, 10), 50),
        (date(2026, 11, 11), 50),
    ]
    monthly = range_report(start=date(2026, 10, 15), end=date(2026, 11, 30), group="month")
    assert [(p.label, p.rake) for p in monthly.periods] == [("2026-10", 0), ("2026-11", 850)]


def test_aml_list_names_players_over_threshold__PLY_2(cashier):
    shift = shift_open(actor=cashier, opening_float_cents=0, now=at(10))
    carol = PlayerFactory(last_name="Carol")
    player_verify_id(actor=cashier, player=carol)
    carol.refresh_from_db()
    for hour in (11, 12, 13, 14):
        cash_buy_in(
            actor=cashier,
            shift=shift,
            player=carol,
            amount_cents=60_000,
            reference="table:1",
            idempotency_key=key(),
            now=at(hour),
        )
    [row] = daily_report(day=DAY).aml
    assert (row["name"], row["total"], row["transactions"], row["id_verified"]) == (
        f"{carol.first_name} Carol",
        240_000,
        4,
        True,
    )


def test_reports_are_for_managers_only__ROL_1(client, cashier, floor, manager):
    for user in (cashier, floor):
        client.force_login(user)
        assert client.get("/reports/").status_code == 403
    client.force_login(manager)
    assert client.get("/reports/").status_code == 200
    assert client.get("/reports/range/").status_code == 200


def test_csv_export_is_audited(client, manager, known_day):
    client.force_login(manager)
    response = client.get("/reports/", {"day": "2026-11-10", "export": "summary"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[1] == "2026-11-10,8.50,20.00,20.00,8.50,2.00,1.50,0.00,200.00,200.00"
    record = AuditRecord.objects.get(action="report.export")
    assert record.actor == manager
    assert record.object_id == "daily:summary"


def test_range_page_refuses_backwards_range(client, manager):
    client.force_login(manager)
    response = client.get("/reports/range/", {"start": "2026-11-10", "end": "2026-11-01", "group": "day"})
    assert response.status_code == 200
    assert "ends before it starts" in response.content.decode()
