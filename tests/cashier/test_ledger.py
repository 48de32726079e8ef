import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from cardroom.errors import DomainError
from cashier.models import AccountKind, Entry, Posting
from cashier.selectors import ledger_total, unbalanced_postings
from cashier.services import account_for, ledger_post

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
