from datetime import date

import pytest
from django.db import IntegrityError, transaction

from cardroom.errors import DomainError
from cashier.models import AccountKind, CashierTransaction, Posting, ReceiptCounter
from cashier.selectors import account_amount, drawer_expected, ledger_total, prize_pool_balance
from cashier.services import (
    account_for,
    cash_buy_in,
    cash_out,
    jackpot_payout,
    ledger_post,
    reversal_approve,
    reversal_request,
    tournament_payment,
    tournament_payout,
    tournament_refund,
)
from players.models import ExclusionStatus
from players.services import player_exclude, player_verify_id
from tests.cashier.conftest import at, key

pytestmark = pytest.mark.django_db


def buy_in(cashier, shift, player, cents, *, when=None, method="cash", idempotency_key=None):
    with transaction.atomic():  # a game's service calls it inside its own transaction (run_once's)
        return _buy_in(
            cashier, shift, player, cents, when=when, method=method, idempotency_key=idempotency_key
        )


def _buy_in(cashier, shift, player, cents, *, when, method, idempotency_key):
    return cash_buy_in(
        actor=cashier,
        shift=shift,
        player=player,
        amount_cents=cents,
        method=method,
        reference="session:7",
        idempotency_key=idempotency_key or key(),
        now=when or at(12),
    )


def test_cash_buy_in_and_cash_out_move_drawer_and_chips(cashier, shift, player):
    first = buy_in(cashier, shift, player, 20_000)
    assert first.receipt_number == 1
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner="session:7") == 20_000
    out = cash_out(
        actor=cashier,
        shift=shift,
        player=player,
        amount_cents=15_050,
        reference="session:7",
        idempotency_key=key(),
        now=at(13),
    )
    assert out.receipt_number == 2
    assert drawer_expected(shift=shift) == 100_000 + 20_000 - 15_050
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner="session:7") == 4_950
    assert ledger_total() == 0


def test_card_buy_in_goes_to_clearing_not_drawer(cashier, shift, player):
    buy_in(cashier, shift, player, 30_000, method="card")
    assert drawer_expected(shift=shift) == 100_000
    assert account_amount(kind=AccountKind.CARD_CLEARING) == 30_000


def test_cash_out_beyond_chips_in_play_refused(cashier, shift, player):
    buy_in(cashier, shift, player, 10_000)
    with pytest.raises(DomainError) as error, transaction.atomic():
        cash_out(
            actor=cashier,
            shift=shift,
            player=player,
            amount_cents=10_050,
            reference="session:7",
            idempotency_key=key(),
        )
    assert error.value.code == "insufficient_balance"
    assert CashierTransaction.objects.count() == 1


def test_tournament_buy_in_splits_prize_fee_bounty__TRN_6(cashier, shift, player):
    record = tournament_payment(
        actor=cashier,
        shift=shift,
        player=player,
        kind="tournament_buy_in",
        tournament_id=5,
        prize_cents=9_000,
        fee_cents=1_000,
        bounty_cents=2_000,
        idempotency_key=key(),
    )
    assert record.amount_cents == 12_000
    assert prize_pool_balance(tournament_id=5) == 9_000
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 1_000
    assert account_amount(kind=AccountKind.BOUNTY_POOL, owner="tournament:5") == 2_000
    assert drawer_expected(shift=shift) == 112_000


def test_refund_returns_everything__TRN_2(cashier, shift, player):
    tournament_payment(
        actor=cashier,
        shift=shift,
        player=player,
        kind="tournament_buy_in",
        tournament_id=5,
        prize_cents=9_000,
        fee_cents=1_000,
        idempotency_key=key(),
    )
    tournament_refund(
        actor=cashier,
        shift=shift,
        player=player,
        tournament_id=5,
        prize_cents=9_000,
        fee_cents=1_000,
        idempotency_key=key(),
    )
    assert prize_pool_balance(tournament_id=5) == 0
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 0
    assert drawer_expected(shift=shift) == 100_000


def test_prize_payout_limited_to_pool__TRN_10(cashier, shift, player):
    tournament_payment(
        actor=cashier,
        shift=shift,
        player=player,
        kind="tournament_buy_in",
        tournament_id=5,
        prize_cents=9_000,
        fee_cents=1_000,
        idempotency_key=key(),
    )
    prize = {"actor": cashier, "shift": shift, "kind": "prize_payout", "player": player, "tournament_id": 5}
    tournament_payout(**prize, amount_cents=9_000, idempotency_key=key())
    assert prize_pool_balance(tournament_id=5) == 0
    with pytest.raises(DomainError) as error, transaction.atomic():
        tournament_payout(**prize, amount_cents=50, idempotency_key=key())
    assert error.value.code == "insufficient_balance"
    assert "prize pool" in error.value.message


def test_a_tournament_pays_only_prizes_bounties_and_refunds(cashier, shift, player):
    before = Posting.objects.count()
    with pytest.raises(DomainError) as error:
        tournament_payout(
            actor=cashier,
            shift=shift,
            kind="cash_out",
            player=player,
            tournament_id=5,
            amount_cents=100,
            idempotency_key=key(),
        )
    assert error.value.code == "unknown_kind"
    assert Posting.objects.count() == before


def test_jackpot_payout_from_empty_fund_refused__JKP_3(cashier, shift, player):
    with pytest.raises(DomainError) as error, transaction.atomic():
        jackpot_payout(actor=cashier, shift=shift, player=player, amount_cents=100, idempotency_key=key())
    assert "jackpot fund" in error.value.message
    assert Posting.objects.count() == 1  # the opening float only


def test_a_key_makes_one_transaction_at_most__CAG_2(cashier, shift, player):
    buy_in(cashier, shift, player, 5_000, idempotency_key="retry-key-0001")
    # Replaying is the game services' work (cardroom.idempotency); the ledger's own guard is the
    # key's unique index on the transaction: a second transaction with one key never commits.
    with pytest.raises(IntegrityError):
        buy_in(cashier, shift, player, 5_000, idempotency_key="retry-key-0001")
    assert CashierTransaction.objects.count() == 1
    assert drawer_expected(shift=shift) == 105_000


def test_missing_key_refused__CAG_2(cashier, shift, player):
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, player, 5_000, idempotency_key="short")
    assert error.value.code == "idempotency_key_required"


@pytest.mark.parametrize("cents", [0, -100])
def test_zero_or_negative_amount_refused(cashier, shift, player, cents):
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, player, cents)
    assert error.value.code == "amount_not_positive"
    assert CashierTransaction.objects.count() == 0


def test_excluded_player_cannot_buy_in_refusal_logged__PLY_1(cashier, manager, shift, player):
    player_exclude(
        actor=manager,
        player=player,
        status=ExclusionStatus.REGISTER,
        reason="Register",
        excluded_from=date(2026, 1, 1),
    )
    player.refresh_from_db()
    # The game's service logged the refusal before its transaction; the cashier's own check,
    # under the player's lock, refuses an exclusion recorded in between.
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, player, 5_000)
    assert error.value.rule == "PLY-1"
    assert CashierTransaction.objects.count() == 0


def test_summed_cash_reaching_threshold_needs_verified_id__PLY_2(cashier, shift, player):
    for hour in (12, 13, 14):
        buy_in(cashier, shift, player, 60_000, when=at(hour))
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, player, 60_000, when=at(15))
    assert error.value.rule == "PLY-2"
    assert "2,400.00 EUR" in error.value.message
    assert "Verify the ID document" in error.value.message
    assert CashierTransaction.objects.count() == 3
    player_verify_id(actor=cashier, player=player)
    player.refresh_from_db()
    assert buy_in(cashier, shift, player, 60_000, when=at(15)).receipt_number == 4


def test_single_transaction_at_threshold_needs_verified_id__PLY_2(cashier, shift, player):
    with pytest.raises(DomainError) as error:
        buy_in(cashier, shift, player, 200_000)
    assert error.value.code == "aml_id_required"


def test_card_payments_do_not_count_towards_cash_threshold__PLY_2(cashier, shift, player):
    assert buy_in(cashier, shift, player, 250_000, method="card").amount_cents == 250_000


def test_gaming_day_starts_at_venue_hour_not_midnight__PLY_2(cashier, shift, player):
    # 23:00 and 05:00 are one gaming day (it starts at 06:00); 07:00 begins the next.
    buy_in(cashier, shift, player, 150_000, when=at(23, day=10))
    with pytest.raises(DomainError):
        buy_in(cashier, shift, player, 50_000, when=at(5, day=11))
    assert buy_in(cashier, shift, player, 150_000, when=at(7, day=11)).amount_cents == 150_000


def test_receipt_numbers_have_no_gaps__CAG_4(cashier, shift, player):
    buy_in(cashier, shift, player, 1_000)
    with pytest.raises(DomainError), transaction.atomic():
        cash_out(
            actor=cashier,
            shift=shift,
            player=player,
            amount_cents=999_999,
            reference="session:7",
            idempotency_key=key(),
        )
    assert buy_in(cashier, shift, player, 1_000).receipt_number == 2
    assert ReceiptCounter.objects.get().last_number == 2


def test_floor_cannot_post_money__ROL_1(floor, shift, player):
    with pytest.raises(DomainError) as error:
        buy_in(floor, shift, player, 1_000)
    assert error.value.status_code == 403


def test_reversal_needs_a_different_manager__CAG_1(cashier, manager, manager2, shift, player):
    record = buy_in(cashier, shift, player, 5_000)
    request = reversal_request(actor=manager, posting=record.posting, reason="Wrong player")
    with pytest.raises(DomainError) as error:
        reversal_approve(actor=manager, request=request)
    assert error.value.code == "four_eyes"
    reversal = reversal_approve(actor=manager2, request=request)
    assert reversal.reverses == record.posting
    assert reversal.reason == "Wrong player"
    assert drawer_expected(shift=shift) == 100_000
    assert ledger_total() == 0


def test_reversal_of_a_reversal_refused__CAG_1(cashier, manager, manager2, shift, player):
    record = buy_in(cashier, shift, player, 5_000)
    reversal = reversal_approve(
        actor=manager2, request=reversal_request(actor=cashier, posting=record.posting, reason="Typo")
    )
    with pytest.raises(DomainError) as error:
        reversal_request(actor=manager, posting=reversal, reason="Undo")
    assert error.value.code == "reversal_of_reversal"
    with pytest.raises(DomainError) as error:
        reversal_request(actor=manager, posting=record.posting, reason="Again")
    assert error.value.code == "already_reversed"


def test_cancelled_tournament_refund_paid_from_refunds_payable__TRN_2(cashier, shift, player):
    tournament_payment(
        actor=cashier,
        shift=shift,
        player=player,
        kind="tournament_buy_in",
        tournament_id=8,
        prize_cents=9_000,
        fee_cents=1_000,
        idempotency_key=key(),
    )
    # What a cancellation posts: the entry's money becomes a debt to the player.
    owner = "tournament:8"
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), 9_000),
            (account_for(kind=AccountKind.TOURNAMENT_FEES), 1_000),
            (account_for(kind=AccountKind.REFUNDS_PAYABLE, owner=owner), -10_000),
        ],
        description="cancel",
    )
    refund = {"actor": cashier, "shift": shift, "kind": "refund", "player": player, "tournament_id": 8}
    record = tournament_payout(**refund, amount_cents=10_000, idempotency_key=key())
    assert record.kind == "refund"
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner) == 0
    assert drawer_expected(shift=shift) == 100_000
    with pytest.raises(DomainError) as error:
        tournament_payout(**refund, amount_cents=50, idempotency_key=key())
    assert error.value.code == "insufficient_balance"
