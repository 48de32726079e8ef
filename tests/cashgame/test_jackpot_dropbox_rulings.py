from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cashgame.models import DropBoxCount, HandStatus, JackpotClaim, JackpotShare, Ruling
from cashgame.services.dropbox import dropbox_count_record
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.jackpot import jackpot_claim_create, jackpot_share_pay
from cashgame.services.rulings import ruling_record
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import jackpot_fund_balance
from cashier.services import account_for, ledger_post
from tests.cashgame.conftest import at, key, seat_players

pytestmark = pytest.mark.django_db

LOSER, WINNER, BOARD = "8s8h", "QcKc", "8d 8c 9c Tc Jc"  # quads beaten by a straight flush


def seed_fund(cents: int) -> None:
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.VAULT), cents),
            (account_for(kind=AccountKind.JACKPOT_FUND), -cents),
        ],
        description="Jackpot seed",
    )


def played_hand(floor, table, seats, pot=22_000, minute=10):
    hand = hand_start(actor=floor, table=table, seats=seats, now=at(minute))
    hand_flop(actor=floor, hand=hand, now=at(minute + 0.5))
    return hand_end(actor=floor, hand=hand, pot_cents=pot, now=at(minute + 1))


@pytest.fixture
def four(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


def claim(floor, hand, loser=LOSER, winner=WINNER, board=BOARD, seats=(1, 2)):
    return jackpot_claim_create(
        actor=floor,
        hand=hand,
        loser_seat=seats[0],
        winner_seat=seats[1],
        loser_cards=loser,
        winner_cards=winner,
        board=board,
        now=at(30),
    )


def test_bad_beat_claim_splits_the_fund_and_the_cashier_pays__JKP_3(floor, cashier, shift, table12, four):
    seed_fund(1_000_000)
    hand = played_hand(floor, table12, [1, 2, 3, 4])
    result = claim(floor, hand)
    assert (result.fund_cents, result.loser_hand, result.winner_hand) == (
        1_000_100,
        "Four of a kind",
        "Straight flush",
    )
    shares = [(share.player_id, share.role, share.amount_cents) for share in result.shares.order_by("pk")]
    assert shares == [
        (four[0].player_id, "loser", 500_100),
        (four[1].player_id, "winner", 250_000),
        (four[2].player_id, "table", 125_000),
        (four[3].player_id, "table", 125_000),
    ]
    for share in result.shares.all():
        jackpot_share_pay(actor=cashier, shift=shift, share=share, idempotency_key=key(), now=at(40))
    assert jackpot_fund_balance() == 0
    assert CashierTransaction.objects.filter(kind="jackpot_payout").count() == 4


def test_jackpot_share_is_paid_once__JKP_3(floor, cashier, shift, table12, four):
    seed_fund(10_000)
    loser_share = claim(floor, played_hand(floor, table12, [1, 2, 3, 4])).shares.get(role="loser")
    jackpot_share_pay(actor=cashier, shift=shift, share=loser_share, idempotency_key="cg-jackpot-1")
    replay = jackpot_share_pay(actor=cashier, shift=shift, share=loser_share, idempotency_key="cg-jackpot-1")
    assert replay.transaction.amount_cents == 5_100
    with pytest.raises(DomainError) as error:
        jackpot_share_pay(actor=cashier, shift=shift, share=loser_share, idempotency_key=key())
    assert error.value.code == "share_paid"
    assert CashierTransaction.objects.filter(kind="jackpot_payout").count() == 1


def test_claim_with_fewer_than_4_dealt_in_is_refused__JKP_1(floor, table12, four):
    seed_fund(10_000)
    hand = played_hand(floor, table12, [1, 2, 3])
    with pytest.raises(DomainError) as error:
        claim(floor, hand)
    assert (error.value.code, error.value.rule) == ("hand_not_eligible", "JKP-1")
    assert not JackpotClaim.objects.exists() and not JackpotShare.objects.exists()


def test_claim_at_an_ineligible_table_is_refused__JKP_1(cashier, floor, shift, table25):
    seed_fund(10_000)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table25, count=4)
    hand = played_hand(floor, table25, [1, 2, 3, 4])
    with pytest.raises(DomainError) as error:
        claim(floor, hand)
    assert (error.value.code, error.value.rule) == ("hand_not_eligible", "JKP-1")
    assert "2.00/5.00 EUR" in error.value.message
    assert not JackpotClaim.objects.exists()


def test_claim_that_does_not_qualify_is_refused_with_the_reason__JKP_3(floor, table12, four):
    seed_fund(10_000)
    hand = played_hand(floor, table12, [1, 2, 3, 4])
    with pytest.raises(DomainError) as error:
        claim(floor, hand, loser="8s2h", winner="QcKc", board="8d 8c 9c Tc Jc")
    assert (error.value.code, error.value.rule) == ("bad_beat_not_qualifying", "JKP-3")
    assert "below Four of a kind" in error.value.message
    assert not JackpotClaim.objects.exists()


def test_a_card_entered_twice_is_refused__FLR_2(floor, table12, four):
    seed_fund(10_000)
    hand = played_hand(floor, table12, [1, 2, 3, 4])
    with pytest.raises(DomainError) as error:
        claim(floor, hand, loser="8s8h", winner="8sKc")
    assert (error.value.code, error.value.rule) == ("duplicate_card", "FLR-2")
    assert not JackpotClaim.objects.exists()


def test_dropbox_count_records_the_variance__RAK_5(manager, floor, table12, four):
    played_hand(floor, table12, [1, 2, 3, 4], pot=22_000, minute=10)  # rake 5.00
    played_hand(floor, table12, [1, 2, 3, 4], pot=3_900, minute=20)  # rake 1.50
    played_hand(floor, table12, [1, 2, 3, 4], pot=22_000, minute=70)  # after the period
    count = dropbox_count_record(
        actor=manager,
        table=table12,
        period_start=at(0),
        period_end=at(60),
        counted_cents=600,
        now=at(90),
    )
    assert (count.expected_cents, count.counted_cents, count.variance_cents, count.hands) == (
        650,
        600,
        -50,
        2,
    )
    with pytest.raises(DomainError) as error:
        dropbox_count_record(
            actor=manager,
            table=table12,
            period_start=at(30),
            period_end=at(80),
            counted_cents=500,
            now=at(90),
        )
    assert (error.value.code, error.value.rule) == ("period_overlaps", "RAK-5")
    assert DropBoxCount.objects.count() == 1


def test_dropbox_count_of_a_running_period_is_refused__RAK_5(manager, table12):
    with pytest.raises(DomainError) as error:
        dropbox_count_record(
            actor=manager, table=table12, period_start=at(0), period_end=at(60), counted_cents=0, now=at(59)
        )
    assert error.value.code == "period_not_over"
    assert not DropBoxCount.objects.exists()


def test_misdeal_ruling_voids_the_hand_in_progress__FLR_1_FLR_5(floor, table12, four):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    ruling = ruling_record(
        actor=floor,
        table=table12,
        hand=hand,
        situation="first_card_exposed",
        decision="Second card exposed by the dealer: redeal.",
        now=at(11),
    )
    hand.refresh_from_db()
    assert (ruling.rule, ruling.staff, ruling.at, ruling.hand) == ("FLR-1", floor, at(11), hand)
    assert (hand.status, hand.void_reason, hand.rake_cents) == (HandStatus.VOIDED, "misdeal", 0)


def test_dead_hand_ruling_leaves_the_hand_running__FLR_4(floor, table12, four):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    ruling_record(
        actor=floor, table=table12, hand=hand, situation="refused_to_show", decision="Seat 3's hand is dead."
    )
    hand.refresh_from_db()
    assert hand.status == HandStatus.IN_PROGRESS
    assert Ruling.objects.get().rule == "FLR-4"


@pytest.mark.parametrize("situation", ["flop_too_many_cards", "card_turned_early"])
def test_flop_redeal_ruling_leaves_the_hand_running__FLR_3(floor, table12, four, situation):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    ruling_record(
        actor=floor, table=table12, hand=hand, situation=situation, decision="Re-dealt per house procedure."
    )
    hand.refresh_from_db()
    assert hand.status == HandStatus.IN_PROGRESS
    assert Ruling.objects.get().rule == "FLR-3"


def test_ruling_without_a_decision_is_refused__FLR_5(floor, table12):
    with pytest.raises(DomainError) as error:
        ruling_record(actor=floor, table=table12, situation="folded", decision="  ")
    assert error.value.code == "decision_required"
    assert not Ruling.objects.exists()


def test_hold_expiry_is_three_minutes(game12):
    assert timedelta(seconds=game12.seat_hold_seconds) == timedelta(minutes=3)
