"""The daily report of a known day, every figure exact, live (from the raw records) and from the
rollups alike, and reconciled with the raw ledger to the cent."""

import pytest

from cardroom.errors import DomainError
from cashier.models import AccountDayTotal, AccountKind
from cashier.services import account_for, ledger_post
from reports.models import PlayerDayTotal, RolledUpDay, TableDayTotal, TournamentDayTotal
from reports.selectors import daily_report
from reports.services import rollup_build_day, rollup_build_missing
from tests.reports import ledger_recompute
from tests.reports.known_day import DAY, NEXT, at

pytestmark = pytest.mark.django_db
LATER = at(12, day=12)  # both days have ended


def cash_figures(line):
    return (
        line.minutes_open,
        line.hands,
        line.raked_hands,
        line.no_flop_hands,
        line.voided_hands,
        line.pot_cents,
        line.rake_cents,
        line.jackpot_cents,
    )


def assert_known_day(report):
    f = report.figures
    assert (f.rake, f.fees, f.overlay, f.cash_variance) == (2_050, 6_000, 46_000, -50)
    assert f.house_result == 2_050 + 6_000 - 46_000 - 50
    assert (f.jackpot_drops, f.jackpot_payouts) == (200, 150)
    # The tournaments' figures (TRN-2, TRN-10): 540.00 collected for Daily 50 (Turbo 20's 54.00
    # given back: none kept), 800.00 of prizes paid, and Turbo 20's 60.00 owed back (prize part
    # and fee) shown as refunds, not as a prize.
    assert (f.prize_contributions, f.prizes_paid, f.refunds) == (54_000, 80_000, 6_000)
    assert (report.jackpot_opening, report.jackpot_closing) == (0, 50)

    # Cash games per table (RAK-1..RAK-5): minutes open, hands, raked, no flop, void, pots, rake, drop.
    tables = {line.table_number: line for line in report.cash.tables}
    assert cash_figures(tables[1]) == (690, 5, 3, 1, 1, 20_800, 750, 200)
    assert cash_figures(tables[2]) == (600, 1, 1, 0, 0, 30_000, 500, 0)
    assert cash_figures(tables[3]) == (240, 2, 2, 0, 0, 16_000, 800, 0)
    assert tables[3].games == ["NLHE 1/2", "NLHE 2/5"]
    drop = [
        (t, line.drop_counts, line.drop_counted_cents, line.drop_expected_cents, line.drop_variance_cents)
        for t, line in tables.items()
    ]
    assert drop == [(1, 1, 700, 750, -50), (2, 1, 500, 500, 0), (3, 0, 0, 0, 0)]
    assert (tables[1].hands_per_hour, tables[1].rake_per_hour_cents, tables[1].average_pot_cents) == (
        0,
        65,
        5_200,
    )
    stakes = {line.label: line for line in report.cash.stakes}
    assert list(stakes) == ["NLHE 1/2", "NLHE 2/5"]
    assert cash_figures(stakes["NLHE 1/2"]) == (810, 6, 4, 1, 1, 26_800, 1_050, 200)
    assert cash_figures(stakes["NLHE 2/5"]) == (720, 2, 2, 0, 0, 40_000, 1_000, 0)
    assert cash_figures(report.cash.total) == (1_530, 8, 6, 1, 1, 66_800, 2_050, 200)
    assert [
        (c.table.number, c.expected_cents, c.counted_cents, c.variance_cents, c.hands)
        for c in report.drop_counts
    ] == [(1, 750, 700, -50, 3), (2, 500, 500, 0, 1)]

    # Tournaments: entries, re-entries, prize pool, fees, overlay, payouts, net (TRN-2..TRN-6, TRN-10).
    daily, turbo = report.tournaments.lines
    assert (daily.tournament.name, daily.players, daily.buy_ins, daily.re_entries) == ("Daily 50", 10, 10, 2)
    assert (daily.contributions_cents, daily.overlay_cents, daily.prize_pool_cents) == (
        54_000,
        46_000,
        100_000,
    )
    assert (daily.fees_cents, daily.prizes_paid_cents, daily.refunds_cents, daily.net_cents) == (
        6_000,
        80_000,
        0,
        -40_000,
    )
    assert (daily.guarantee_cents, daily.guarantee_outcome) == (100_000, "Holds")
    assert (turbo.tournament.name, turbo.buy_ins, turbo.contributions_cents, turbo.fees_cents) == (
        "Turbo 20",
        3,
        0,
        0,
    )
    assert (turbo.refunds_cents, turbo.prizes_paid_cents, turbo.net_cents) == (6_000, 0, 0)
    total = report.tournaments.total
    assert (total.entries, total.fees_cents, total.overlay_cents, total.net_cents) == (
        15,
        6_000,
        46_000,
        -40_000,
    )
    assert not report.unattributed.any

    # Cashier shifts (CAG-3): the whole shift, closed after midnight.
    [line] = report.shifts
    assert (line.transactions, line.cash_in, line.cash_out) == (36, 386_000, 180_400)
    assert (line.shift.expected_cents, line.shift.counted_cents, line.shift.variance_cents) == (
        405_600,
        405_550,
        -50,
    )
    # PLY-2: E bought in 2,000.00 in cash.
    [aml] = report.aml
    assert (aml.name.split()[-1], aml.total_cents, aml.transactions, aml.id_verified) == (
        "E",
        200_000,
        1,
        True,
    )


def test_daily_report_every_figure_exact__RAK_5(room):
    assert_known_day(daily_report(day=DAY, now=LATER))


def test_rollups_give_the_same_report_as_the_raw_records(room):
    live = daily_report(day=DAY, now=LATER)
    assert rollup_build_missing(now=LATER) == [DAY, NEXT]
    rolled = daily_report(day=DAY, now=LATER)
    assert rolled == live
    assert_known_day(rolled)
    rows = TableDayTotal.objects.filter(day=DAY).order_by("table__number", "big_blind_cents")
    assert [(r.table.number, r.game.name, r.minutes_open, r.hands, r.rake_cents) for r in rows] == [
        (1, "NLHE 1/2", 690, 5, 750),
        (2, "NLHE 2/5", 600, 1, 500),
        (3, "NLHE 1/2", 120, 1, 300),
        (3, "NLHE 2/5", 120, 1, 500),
    ]
    assert TournamentDayTotal.objects.filter(day=DAY).count() == 2
    assert PlayerDayTotal.objects.get(day=DAY, player=room.players["A"]).minutes_played == 655


@pytest.mark.parametrize("rolled_up", [False, True])
@pytest.mark.parametrize("day", [DAY, NEXT])
def test_report_recomputed_from_raw_ledger_entries_to_the_cent(room, day, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    report = daily_report(day=day, now=LATER)
    f = report.figures
    assert {
        "rake": f.rake,
        "fees": f.fees,
        "overlay": f.overlay,
        "cash_variance": f.cash_variance,
        "jackpot_drops": f.jackpot_drops,
        "jackpot_payouts": f.jackpot_payouts,
        "prize_contributions": f.prize_contributions,
        "prizes_paid": f.prizes_paid,
        "refunds": f.refunds,
    } == ledger_recompute.figures(day)
    assert report.jackpot_opening == ledger_recompute.jackpot_balance_before(day)
    by_table = ledger_recompute.rake_by_table_and_stakes(day)
    assert sum(rake for rake, _drop in by_table.values()) == f.rake
    for line in report.cash.tables:
        parts = [v for k, v in by_table.items() if k[0] == line.table_number]
        assert (line.rake_cents, line.jackpot_cents) == (sum(p[0] for p in parts), sum(p[1] for p in parts))
    for line in report.cash.stakes:
        parts = [v for k, v in by_table.items() if k[1:] == (line.small_blind_cents, line.big_blind_cents)]
        assert (line.rake_cents, line.jackpot_cents) == (sum(p[0] for p in parts), sum(p[1] for p in parts))
    money = ledger_recompute.tournament_money(day)
    assert {line.tournament.pk for line in report.tournaments.lines} == set(money)
    for line in report.tournaments.lines:
        sums = money[line.tournament.pk]
        assert line.fees_cents == -sums[AccountKind.TOURNAMENT_FEES]
        assert line.overlay_cents == sums[AccountKind.OVERLAY_EXPENSE]
        assert line.bounties_cents - line.bounties_paid_cents == -sums[AccountKind.BOUNTY_POOL]
        # What the pool kept in the day: contributions and overlay in, prizes out.
        assert (
            line.contributions_cents + line.overlay_cents - line.prizes_paid_cents
            == -sums[AccountKind.PRIZE_POOL]
        )
        assert line.refunds_cents == sums["refunds_owed"]
    cash = ledger_recompute.player_cash(day)
    assert {(line.player_id, line.total_cents, line.transactions) for line in report.aml} == {
        (player, total, n) for player, (total, n) in cash.items() if total >= 200_000
    }


def test_next_day_holds_what_crossed_the_boundary(room):
    report = daily_report(day=NEXT, now=LATER)
    tables = {line.table_number: line for line in report.cash.tables}
    # Table 2 from 06:00 to its close at 07:00, and the hand that ended at 06:02.
    assert cash_figures(tables[2]) == (60, 1, 1, 0, 0, 1_000, 50, 0)
    assert report.figures.rake == 50
    [daily] = report.tournaments.lines
    assert (daily.buy_ins, daily.prizes_paid_cents, daily.net_cents) == (0, 20_000, 0)
    assert report.drop_counts == []  # the count of the night's period belongs to the 10th


def test_rollup_refuses_a_day_not_over(room):
    with pytest.raises(DomainError) as error:
        rollup_build_day(day=DAY, now=at(23, day=10))
    assert error.value.code == "day_not_over"
    assert AccountDayTotal.objects.count() == TableDayTotal.objects.count() == 0


def test_backdated_posting_reopens_the_days_rollups(room):
    rollup_build_missing(now=LATER)
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=f"table:{room.tables[1].pk}"), 50),
            (account_for(kind=AccountKind.RAKE_REVENUE), -50),
        ],
        description="late correction",
        now=at(13),
    )
    assert not RolledUpDay.objects.filter(day=DAY).exists()
    assert not TableDayTotal.objects.filter(day=DAY).exists()
    assert not AccountDayTotal.objects.filter(day=DAY).exists()
    report = daily_report(day=DAY)
    assert report.figures.rake == 2_100
    # A manual posting is in the total, shown apart from the hand log's rake.
    assert (report.unattributed.rake, report.cash.total.rake_cents) == (50, 2_050)
    assert TableDayTotal.objects.filter(day=NEXT).exists()  # the other day keeps its rollups
    rollup_build_missing()
    assert daily_report(day=DAY) == report


def test_rollups_rebuilt_on_demand_by_command(room, capsys):
    from django.core.management import call_command

    call_command("rollup_rebuild")
    assert RolledUpDay.objects.filter(day__in=[DAY, NEXT]).count() == 2
    before = list(
        TableDayTotal.objects.filter(day=DAY).order_by("pk").values_list("table_id", "hands", "rake_cents")
    )
    call_command("rollup_rebuild", "--start", "2026-11-10", "--end", "2026-11-10")
    assert "1 gaming days rolled up (2026-11-10 - 2026-11-10)" in capsys.readouterr().out
    assert (
        list(
            TableDayTotal.objects.filter(day=DAY)
            .order_by("pk")
            .values_list("table_id", "hands", "rake_cents")
        )
        == before
    )
