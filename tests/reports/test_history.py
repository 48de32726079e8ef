"""The history generator (bench/history, run as bench/generate_history.py): a small run (the full
five years needs PostgreSQL), consistent with what the live services post, its rollups built, and
the reports reconciled with its raw ledger."""

from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from bench.history import history_check
from bench.history.command import Command as GenerateHistory
from cardroom.selectors import gaming_day_bounds
from cashgame.models import DropBoxCount, Hand, PlayerSession
from cashier.models import AccountKind, CashierTransaction, Entry, Posting
from players.models import Player
from reports.models import RolledUpDay
from reports.selectors import daily_report, range_report
from tests.conftest import ON_POSTGRES
from tests.reports import ledger_recompute
from tournaments.models import Tournament

# On PostgreSQL the generator loads through a second connection (COPY), which must see and commit
# real rows: those tests run outside a wrapping transaction there.
pytestmark = pytest.mark.django_db(transaction=ON_POSTGRES)
END = date(2026, 11, 7)  # a Saturday, the first of the month: the festival and the main event run


@pytest.fixture
def history():
    call_command(GenerateHistory(), "--days", "3", "--scale", "0.05", "--end", END.isoformat(), "--seed", "7")


def test_small_history_is_consistent_and_rolled_up(history):
    assert history_check()["unbalanced_postings"] == 0
    assert Hand.objects.count() > 1_000
    # Every ended day from the first posting on is rolled up (the days after the history too).
    rolled = set(RolledUpDay.objects.values_list("day", flat=True))
    assert {date(2026, 11, 5), date(2026, 11, 6), END} <= rolled
    # The range report over the whole history, from the rollups, holds the ledger's rake (asked
    # here once: the reconciliation of each day below would ask the same range each time).
    ranged = range_report(start=date(2026, 11, 5), end=END)
    assert ranged.total.rake == -sum(
        e.amount_cents for e in Entry.objects.filter(account__kind=AccountKind.RAKE_REVENUE)
    )
    # Every raked hand posted its rake and drop in one posting, at the time it ended (RAK-1, JKP-2).
    for hand in Hand.objects.filter(posting__isnull=False).select_related("posting")[:200]:
        entries = {e.account.kind: e.amount_cents for e in hand.posting.entries.select_related("account")}
        assert entries.get(AccountKind.RAKE_REVENUE, 0) == -hand.rake_cents
        assert entries.get(AccountKind.JACKPOT_FUND, 0) == -hand.jackpot_drop_cents
        assert hand.posting.created_at == hand.ended_at
    assert not Hand.objects.filter(saw_flop=False, rake_cents__gt=0).exists()  # RAK-2
    assert not Hand.objects.filter(status="voided", posting__isnull=False).exists()  # RAK-4
    # PLY-2: nobody reached the threshold in cash in a gaming day without a verified ID.
    for row in ledger_recompute.player_cash(END).items():
        player, (total, _n) = row
        if total >= 200_000:
            assert Player.objects.get(pk=player).id_verified_at is not None
    assert not PlayerSession.objects.filter(ended_at__isnull=True).exists()
    assert DropBoxCount.objects.count() > 0
    statuses = set(Tournament.objects.values_list("status", flat=True))
    assert "finished" in statuses
    # Receipts are gap-free and in time order (CAG-4).
    receipts = list(
        CashierTransaction.objects.order_by("created_at", "receipt_number").values_list(
            "receipt_number", flat=True
        )
    )
    assert receipts == list(range(1, len(receipts) + 1))


@pytest.mark.parametrize("day", [date(2026, 11, 6), END])
def test_history_reports_reconcile_with_the_raw_ledger(history, day):
    report = daily_report(day=day)
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
    assert not report.unattributed.any
    by_table = ledger_recompute.rake_by_table_and_stakes(day)
    for line in report.cash.tables:
        parts = [v for k, v in by_table.items() if k[0] == line.table_number]
        assert (line.rake_cents, line.jackpot_cents) == (sum(p[0] for p in parts), sum(p[1] for p in parts))
    money = ledger_recompute.tournament_money(day)
    for line in report.tournaments.lines:
        assert line.fees_cents == -money[line.tournament.pk][AccountKind.TOURNAMENT_FEES]
        assert line.overlay_cents == money[line.tournament.pk][AccountKind.OVERLAY_EXPENSE]
    start, end = gaming_day_bounds(day)
    assert report.cash.total.hands == Hand.objects.filter(ended_at__gte=start, ended_at__lt=end).count()


def test_history_refuses_a_ledger_that_is_not_empty(history):
    with pytest.raises(CommandError, match="already holds postings"):
        call_command(GenerateHistory(), "--days", "1", "--scale", "0.05")
    assert Posting.objects.filter(description="x").count() == 0


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's limit")
def test_full_history_refused_on_sqlite():
    with pytest.raises(CommandError, match="too much for SQLite"):
        call_command(GenerateHistory())
    assert not Posting.objects.exists()
