from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import AccountKind, Entry, Posting
from cashier.selectors import _rolled_days_before, account_balance, ledger_total, unbalanced_postings
from cashier.services import account_for, ledger_post
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
