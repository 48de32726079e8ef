import pytest
from django.db import transaction

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import AccountKind, Posting, ShiftStatus
from cashier.selectors import account_amount, drawer_expected, ledger_total
from cashier.services import cash_buy_in, shift_close, shift_handover, shift_open
from tests.cashier.conftest import at, key

pytestmark = pytest.mark.django_db


def test_open_shift_takes_float_from_vault__CAG_3(cashier):
    shift = shift_open(actor=cashier, opening_float_cents=100_000, now=at(10))
    assert drawer_expected(shift=shift) == 100_000
    assert account_amount(kind=AccountKind.VAULT) == -100_000
    assert AuditRecord.objects.get(action="shift.open").after["opening_float_cents"] == 100_000


def test_second_open_shift_refused__CAG_3(cashier, shift):
    with pytest.raises(DomainError) as error:
        shift_open(actor=cashier, opening_float_cents=5_000)
    assert error.value.code == "shift_already_open"
    assert Posting.objects.count() == 1


def test_close_records_expected_counted_variance__CAG_3(cashier, shift, player):
    cash_buy_in(
        actor=cashier,
        shift=shift,
        player=player,
        amount_cents=20_000,
        reference="session:1",
        idempotency_key=key(),
        now=at(11),
    )
    first = shift_close(actor=cashier, shift=shift, denominations={"5000": 23, "1000": 9}, now=at(18))
    assert (first.status, first.first_count_cents, first.recount_asked) == ("open", 124_000, True)
    closed = shift_close(actor=cashier, shift=shift, denominations={"5000": 23, "1000": 9}, now=at(18, 5))
    assert (closed.expected_cents, closed.counted_cents, closed.variance_cents) == (120_000, 124_000, 4_000)
    assert closed.denominations == {"5000": 23, "1000": 9}
    assert drawer_expected(shift=closed) == 0
    assert account_amount(kind=AccountKind.CASH_VARIANCE) == -4_000  # over: a credit
    assert ledger_total() == 0
    record = AuditRecord.objects.get(action="shift.close")
    assert record.before["status"] == "open"
    assert record.after["variance_cents"] == 4_000


def test_double_close_refused_and_nothing_written__CAG_3(cashier, shift):
    shift_close(actor=cashier, shift=shift, counted_cents=100_000)
    postings = Posting.objects.count()
    with pytest.raises(DomainError) as error:
        shift_close(actor=cashier, shift=shift, counted_cents=100_000)
    assert error.value.code == "shift_closed"
    assert Posting.objects.count() == postings


def test_closed_shift_takes_no_transactions__CAG_3(cashier, shift, player):
    shift_close(actor=cashier, shift=shift, counted_cents=100_000)
    with pytest.raises(DomainError) as error, transaction.atomic():
        cash_buy_in(
            actor=cashier,
            shift=shift,
            player=player,
            amount_cents=100,
            reference="session:1",
            idempotency_key=key(),
        )
    assert error.value.code == "shift_closed"


def test_another_cashiers_shift_refused__CAG_3(cashier, cashier2, shift, player):
    with pytest.raises(DomainError) as error, transaction.atomic():
        cash_buy_in(
            actor=cashier2,
            shift=shift,
            player=player,
            amount_cents=100,
            reference="session:1",
            idempotency_key=key(),
        )
    assert error.value.code == "not_your_shift"
    assert error.value.status_code == 403
    with pytest.raises(DomainError):
        shift_close(actor=cashier2, shift=shift, counted_cents=0)
    shift.refresh_from_db()
    assert shift.status == ShiftStatus.OPEN


def test_count_by_denomination_must_match_total__CAG_3(cashier, shift):
    with pytest.raises(DomainError) as error:
        shift_close(actor=cashier, shift=shift, counted_cents=100_000, denominations={"5000": 3})
    assert error.value.code == "count_mismatch"


def test_handover_moves_the_counted_cash_to_the_next_cashier__CAG_3(cashier, cashier2, shift):
    new_shift = shift_handover(actor=cashier, shift=shift, to_cashier=cashier2, counted_cents=99_500)
    shift.refresh_from_db()
    assert shift.variance_cents == -500
    assert shift.handed_over_to == new_shift
    assert new_shift.cashier == cashier2
    assert drawer_expected(shift=new_shift) == 99_500
    assert ledger_total() == 0
