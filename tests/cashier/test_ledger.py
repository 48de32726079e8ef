from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import AccountDayTotal, AccountKind, Entry, LedgerDay, Posting
from cashier.selectors import _rolled_days_before, account_balance, ledger_total, unbalanced_postings
from cashier.services import account_for, ledger_days_close_missing, ledger_post
from reports.models import RolledUpDay
from reports.services import rollup_build_day

pytestmark = pytest.mark.django_db


def test_unbalanced_posting_refused__CAG_1():
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    with pytest.raises(DomainError) as error:
        ledger_post(lines=[(vault, 100), (rake, -99)], description="bad")
    assert error.value.code == "unbalanced_posting"
    assert error.value.rule == "CAG-1"
    assert Posting.objects.count() == 0


def test_balanced_posting_sums_to_zero__CAG_1():
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    posting = ledger_post(lines=[(vault, 250), (rake, -250), (vault, 0)], description="rake")
    assert sorted(posting.entries.values_list("amount_cents", flat=True)) == [-250, 250]
    assert ledger_total() == 0
    assert not unbalanced_postings().exists()


@pytest.mark.parametrize(
    "statement",
    ["UPDATE cashier_entry SET amount_cents = 1 WHERE id = %s", "DELETE FROM cashier_entry WHERE id = %s"],
)
def test_direct_sql_update_or_delete_of_entry_fails__CAG_1(statement):
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    posting = ledger_post(lines=[(vault, 250), (rake, -250)], description="rake")
    entry = posting.entries.first()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, [entry.pk])
    assert Entry.objects.get(pk=entry.pk).amount_cents == entry.amount_cents


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_database_refuses_to_commit_unbalanced_posting__CAG_1():
    vault = account_for(kind=AccountKind.VAULT)
    with pytest.raises(IntegrityError), transaction.atomic():
        posting = Posting.objects.create(created_at="2026-11-10T10:00:00Z", description="raw")
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO cashier_entry (posting_id, account_id, amount_cents, created_at) "
                "VALUES (%s, %s, 500, now())",
                [posting.pk, vault.pk],
            )
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert Entry.objects.count() == 0


def test_balances_read_rolled_up_days_and_match_the_entries__CAG_1():
    """Ended gaming days are read from the reports' daily totals, the rest from the entries; the
    balance is the raw sum of the entries either way, also with a day whose rollup was removed."""
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    today = gaming_day_of(timezone.now())
    days = [today - timedelta(days=n) for n in range(6, 0, -1)]

    def noon(day):
        return gaming_day_bounds(day)[0] + timedelta(hours=6)

    for number, day in enumerate(days, start=1):
        ledger_post(lines=[(vault, 100 * number), (rake, -100 * number)], description="rake", now=noon(day))
    for day in days[:5]:
        rollup_build_day(day=day)
    assert _rolled_days_before(today) == (days[0], days[4])
    assert account_balance(account=rake) == -2_100

    # A correction dated into the second day removes its rollup: the run stops before it.
    ledger_post(
        lines=[(vault, 7), (rake, -7)], description="late rake", now=noon(days[1]) + timedelta(hours=1)
    )
    assert not RolledUpDay.objects.filter(day=days[1]).exists()
    assert _rolled_days_before(today) == (days[0], days[0])

    def raw(at=None):
        entries = Entry.objects.filter(account=rake)
        if at is not None:
            entries = entries.filter(created_at__lte=at)
        return entries.aggregate(total=Sum("amount_cents"))["total"] or 0

    assert account_balance(account=rake) == raw() == -2_107
    for at in [
        noon(days[0]),
        noon(days[1]),
        noon(days[3]) - timedelta(seconds=1),
        noon(days[3]),
        noon(days[5]),
    ]:
        assert account_balance(account=rake, at=at) == raw(at)
    before_all = gaming_day_bounds(days[0])[0] - timedelta(hours=1)
    assert account_balance(account=rake, at=before_all) == raw(before_all) == 0


def test_the_ledger_closes_its_own_days_and_reopens_one_posted_into__CAG_1(django_assert_num_queries):
    """Balances read the days the ledger itself has closed (no report involved), in the same three
    queries for forty days of history as for three, and stay the raw sum of the entries when a
    posting dated into a closed day reopens it."""
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    today = gaming_day_of(timezone.now())

    def noon(day):
        return gaming_day_bounds(day)[0] + timedelta(hours=6)

    def raw():
        return Entry.objects.filter(account=rake).aggregate(total=Sum("amount_cents"))["total"] or 0

    posted = 0
    for days in (3, 40):
        for n in range(days, 0, -1):
            if not LedgerDay.objects.filter(day=today - timedelta(days=n)).exists():
                ledger_post(
                    lines=[(vault, n), (rake, -n)], description="rake", now=noon(today - timedelta(days=n))
                )
                posted += n
        closed = ledger_days_close_missing()
        assert closed == [today - timedelta(days=n) for n in range(days, 0, -1) if n > 3 or days == 3]
        ledger_post(lines=[(vault, 1), (rake, -1)], description="rake today")  # not closed: today
        posted += 1
        assert raw() == -posted
        with django_assert_num_queries(3):
            assert account_balance(account=rake) == -posted
    assert LedgerDay.objects.count() == 40
    assert AccountDayTotal.objects.filter(account=rake).count() == 40

    # A correction dated into a closed day reopens that day only, and the balance stays exact.
    reopened = today - timedelta(days=20)
    ledger_post(lines=[(vault, 7), (rake, -7)], description="late rake", now=noon(reopened))
    assert not LedgerDay.objects.filter(day=reopened).exists()
    assert not AccountDayTotal.objects.filter(day=reopened).exists()
    assert account_balance(account=rake) == raw() == -posted - 7
    assert ledger_days_close_missing() == [reopened]
    assert AccountDayTotal.objects.get(day=reopened, account=rake).credit_cents == 20 + 7
    assert account_balance(account=rake) == raw() == -posted - 7


def test_beat_closes_the_ledgers_ended_days__CAG_1(settings):
    from cashier.tasks import ledger_days_close

    assert settings.CELERY_BEAT_SCHEDULE["cashier-ledger-days-close"]["task"] == ledger_days_close.name
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    yesterday = gaming_day_of(timezone.now()) - timedelta(days=1)
    ledger_post(lines=[(vault, 300), (rake, -300)], description="rake", now=gaming_day_bounds(yesterday)[0])
    assert ledger_days_close.apply().get() == 1
    assert ledger_days_close.apply().get() == 0  # idempotent
    assert list(
        AccountDayTotal.objects.order_by("account_id").values_list(
            "day", "account__kind", "debit_cents", "credit_cents"
        )
    ) == [
        (yesterday, AccountKind.VAULT, 300, 0),
        (yesterday, AccountKind.RAKE_REVENUE, 0, 300),
    ]


@pytest.mark.postgres
@pytest.mark.parametrize(
    "table", ["cashier_entry", "cashier_posting", "cashier_cashiertransaction", "cardroom_auditrecord"]
)
def test_truncate_of_the_ledger_is_refused__CAG_1(table):
    vault, rake = account_for(kind=AccountKind.VAULT), account_for(kind=AccountKind.RAKE_REVENUE)
    ledger_post(lines=[(vault, 250), (rake, -250)], description="rake")
    # Only the test harness may empty the tables (tests/conftest.py); this statement speaks for
    # the application, which never says so.
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL cardroom.allow_truncate = 'off'")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # run the deferred balance check first
        cursor.execute(f"TRUNCATE {table} CASCADE")
    assert "TRUNCATE is refused" in str(error.value)
    assert Entry.objects.count() == 2
