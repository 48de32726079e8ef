"""The books of an operator with two venues (VEN-1): each venue's checked on its own rows and
named when it disagrees, the operator's (every venue together) finding an entry on another
venue's account. In a module of its own: the known day of the other report tests is built once
per module, and these books are Casino Two's day alone."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.roles import Role
from cardroom.venues import venue_activate, venue_default
from cashier.models import AccountKind, Entry, Posting, ReceiptCounter
from cashier.services import account_for
from ops.models import BooksCheckRun
from reports.selectors.books import books_by_venue, books_problems
from tests.conftest import make_staff
from tests.reports import venue_two

pytestmark = pytest.mark.django_db
LATER = venue_two.at(12, day=12)


@pytest.fixture
def two_alone(db):
    """Casino Two's day on its own (the known venue empty): both venues' books agree."""
    boss = make_staff("boss", Role.MANAGER)
    return venue_two.build(
        manager=boss, floor=make_staff("floor1", Role.FLOOR), cashier=make_staff("cashier1")
    )


def test_books_checked_per_venue_and_for_the_operator_VEN_1(two_alone, capsys):
    sections = books_by_venue()
    assert [books.venue for books in sections] == [venue_default(), two_alone.venue, None]
    assert [books.problems for books in sections] == [[], [], []]
    assert {check.venue for check in sections[1].checks} == {"Casino Two"}
    call_command("check_books")
    out = capsys.readouterr().out
    assert "Card Room (" in out and "Casino Two (two): all" in out and "Operator (every venue): all" in out
    assert BooksCheckRun.objects.count() == 1

    # Casino Two's receipt counter one ahead of its last receipt: Casino Two's books disagree.
    ReceiptCounter.objects.filter(venue=two_alone.venue).update(last_number=11)
    [problem] = books_problems()
    assert (problem.venue, problem.name, problem.expected, problem.actual) == (
        "Casino Two",
        "Receipts: the counter stands at the last receipt",
        10,
        11,
    )
    with pytest.raises(CommandError, match=r"Casino Two \(two\): 1 of"):
        call_command("check_books")
    assert "DIFF Receipts: the counter stands at the last receipt" in capsys.readouterr().out
    # One venue only: the other's books are not read, nor the run recorded for /metrics.
    call_command("check_books", "--venue", venue_default().slug)
    out = capsys.readouterr().out
    assert "Casino Two" not in out and "Card Room (" in out
    assert BooksCheckRun.objects.count() == 2


def test_books_find_an_entry_on_another_venues_account_VEN_1(two_alone):
    with venue_activate(venue_default()):
        elsewhere = account_for(kind=AccountKind.VAULT)
    with venue_activate(two_alone.venue):
        mine = account_for(kind=AccountKind.CASH_VARIANCE)
        posting = Posting.objects.create(created_at=LATER, description="written around the ledger")
        # The ledger refuses this (cashier.services.ledger_post); a raw write is what the check finds.
        Entry.objects.bulk_create(
            [
                Entry(posting=posting, account=mine, amount_cents=100, created_at=LATER),
                Entry(posting=posting, account=elsewhere, amount_cents=-100, created_at=LATER),
            ]
        )
    [problem] = books_problems()
    assert (problem.venue, problem.name, problem.actual, problem.unit) == (
        "",
        "Ledger: entries on an account of another venue than their posting's",
        1,
        "entries",
    )
