"""LOY-2: a high-hand night. Drops from qualifying pots fund the promotion in the hands' own
postings; the floor's claims are verified and ranked; the sweep settles each period once (a
winner, a carry-over, a three-way tie with an odd cent); the cage pays; the books agree."""

from datetime import time

import pytest

from cage.services import DeskRequest, correction_approve, correction_request, transaction_route
from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import HighHandAward, HighHandClaim, PeriodStatus, PromotionDrop, PromotionPeriod
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.highhand import highhand_claim_create, highhand_sweep, promotion_fund_available
from cashgame.services.promotions import promotion_create
from cashier.models import AccountKind, CashierTransaction, TransactionKind
from cashier.selectors import account_amount
from reports.selectors.books import books_problems
from tests.cashgame.conftest import at, key, seat_players

pytestmark = pytest.mark.django_db

STRAIGHT_BOARD = "Qs Jc Th 2d 3c"
# T0 is 18:00 in Bratislava: the promotion's first period is minutes 120-180 after it.
P1, P2, P3 = 120, 180, 240


@pytest.fixture
def promotion(manager, game12):
    return promotion_create(
        actor=manager,
        games=[game12],
        name="Night high hand",
        starts_at=time(20, 0),
        ends_at=time(2, 0),
        period_minutes=60,
        prize_cents=10_000,
        both_hole_cards=True,
        min_hand=0,
        min_pot_cents=2_000,
        min_players=4,
        drop_cents=100,
        active=True,
        now=at(0),
    )


@pytest.fixture
def four(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


def played(floor, table, minute, pot=22_000, seats=(1, 2, 3, 4), flop=True):
    hand = hand_start(actor=floor, table=table, seats=list(seats), now=at(minute))
    if flop:
        hand_flop(actor=floor, hand=hand, now=at(minute + 0.5))
    return hand_end(actor=floor, hand=hand, pot_cents=pot, now=at(minute + 1))


def claim(floor, promotion, table, hand, seat, hole, board=STRAIGHT_BOARD, minute=None):
    return highhand_claim_create(
        actor=floor,
        promotion=promotion,
        table=table,
        hand=hand,
        seat=seat,
        hole_cards=hole,
        board=board,
        now=at(minute if minute is not None else (hand.ended_at - at(0)).total_seconds() / 60 + 1),
    )


def fund(promotion) -> int:
    return account_amount(kind=AccountKind.PROMOTION_FUND, owner=promotion.reference)


def test_a_qualifying_pot_drops_into_the_fund_in_the_hands_posting__LOY_2(floor, table12, four, promotion):
    hand = played(floor, table12, P1 + 5)
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (500, 100)
    assert list(PromotionDrop.objects.values_list("hand_id", "amount_cents")) == [(hand.pk, 100)]
    assert sorted(hand.posting.entries.values_list("amount_cents", flat=True)) == [-500, -100, -100, 700]
    assert fund(promotion) == 100
    assert books_problems() == []


@pytest.mark.parametrize(
    ("minute", "pot", "seats", "flop"),
    [
        (P1 + 5, 1_900, (1, 2, 3, 4), True),  # a pot under the minimum of 20.00
        (P1 + 5, 22_000, (1, 2, 3), True),  # three dealt in, four needed
        (P1 + 5, 22_000, (1, 2, 3, 4), False),  # no flop
        (60, 22_000, (1, 2, 3, 4), True),  # 19:00: no period runs
    ],
)
def test_no_drop_from_a_pot_that_does_not_qualify__LOY_2(
    floor, table12, four, promotion, minute, pot, seats, flop
):
    played(floor, table12, minute, pot=pot, seats=seats, flop=flop)
    assert PromotionDrop.objects.count() == 0
    assert fund(promotion) == 0
    assert books_problems() == []


def test_a_high_hand_night_beaten_carried_tied_and_paid_at_the_cage__LOY_2(
    floor, cashier, shift, table12, four, promotion
):
    players = [session.player for session in four]
    # Period 1 (20:00-21:00): a straight, then a full house beats it; a lower hand is refused.
    hand_a = played(floor, table12, P1 + 10)
    first, ranking = claim(floor, promotion, table12, hand_a, 1, "ah kd")
    assert (first.hand_label, first.hole_cards, ranking) == ("Straight", "AhKd", "new_best")
    hand_b = played(floor, table12, P1 + 20)
    best, ranking = claim(floor, promotion, table12, hand_b, 2, "Qh Qd", board="Qs Jc Jh 2d 3c")
    assert (best.hand_label, ranking) == ("Full house", "new_best")
    hand_c = played(floor, table12, P1 + 30)
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table12, hand_c, 3, "Ah Kd")
    assert (error.value.code, error.value.rule) == ("beaten", "LOY-2")
    # Period 2 (21:00-22:00): a hand is played, nobody claims.
    played(floor, table12, P2 + 10)
    # Period 3 (22:00-23:00): three straights of the same rank tie.
    hand_d = played(floor, table12, P3 + 10)
    claim(floor, promotion, table12, hand_d, 1, "Ah Kd")
    _tie, ranking = claim(floor, promotion, table12, hand_d, 2, "As Kc", minute=P3 + 12)
    assert ranking == "tie"
    hand_e = played(floor, table12, P3 + 20)
    claim(floor, promotion, table12, hand_e, 3, "Ad Kh")
    assert fund(promotion) == 600  # six qualifying pots, 1.00 each

    assert highhand_sweep(now=at(P3 + 61)) == 3
    assert highhand_sweep(now=at(P3 + 62)) == 0  # a period is settled once
    periods = list(
        PromotionPeriod.objects.order_by("starts_at").values_list(
            "status", "prize_cents", "carried_in_cents", "house_cents"
        )
    )
    assert periods == [
        (PeriodStatus.WON, 10_000, 0, 9_400),
        (PeriodStatus.CARRIED, 10_000, 0, 0),
        (PeriodStatus.WON, 10_000, 10_000, 20_000),
    ]
    awards = list(HighHandAward.objects.order_by("pk").values_list("player_id", "amount_cents"))
    assert awards == [
        (players[1].pk, 10_000),
        (players[0].pk, 6_667),  # the odd cent goes to the earliest claim
        (players[1].pk, 6_667),
        (players[2].pk, 6_666),
    ]
    assert promotion_fund_available(promotion) == 0
    for index in (1, 0, 1, 2):
        transaction_route(
            actor=cashier,
            shift=shift,
            request=DeskRequest(kind=TransactionKind.HIGH_HAND_PAYOUT, player_id=players[index].pk),
            idempotency_key=key(),
            now=at(P3 + 70),
        )
    paid = CashierTransaction.objects.filter(kind=TransactionKind.HIGH_HAND_PAYOUT)
    assert sorted(paid.values_list("amount_cents", flat=True)) == [6_666, 6_667, 6_667, 10_000]
    assert fund(promotion) == 0
    assert account_amount(kind=AccountKind.PROMOTION_EXPENSE) == 29_400
    assert AuditRecord.objects.filter(action="cashgame.high_hand_award").count() == 2
    assert AuditRecord.objects.filter(action="cashgame.high_hand_carry").count() == 1
    assert books_problems() == []


def test_nothing_is_owed_after_the_award_is_paid__LOY_2(floor, cashier, shift, table12, four, promotion):
    hand = played(floor, table12, P1 + 10)
    claim(floor, promotion, table12, hand, 1, "Ah Kd")
    highhand_sweep(now=at(P2))
    request = DeskRequest(kind=TransactionKind.HIGH_HAND_PAYOUT, player_id=four[0].player_id)
    transaction_route(actor=cashier, shift=shift, request=request, idempotency_key=key(), now=at(P2 + 1))
    with pytest.raises(DomainError) as error:
        transaction_route(actor=cashier, shift=shift, request=request, idempotency_key=key(), now=at(P2 + 2))
    assert (error.value.code, error.value.rule) == ("no_award_due", "LOY-2")
    assert books_problems() == []


def _written() -> tuple[int, int, int]:
    return HighHandClaim.objects.count(), PromotionPeriod.objects.count(), AuditRecord.objects.count()


@pytest.mark.parametrize(
    ("seat", "hole", "board", "code"),
    [
        (1, "Ah 4s", "Qs Qh Qd Qc 9s", "hole_cards_do_not_play"),  # only the ace plays
        (1, "Ah Ah", STRAIGHT_BOARD, "duplicate_card"),
        (1, "Ah Qs", STRAIGHT_BOARD, "duplicate_card"),  # a hole card on the board
        (1, "Ah Kz", STRAIGHT_BOARD, "bad_card"),
        (1, "Ah Kd", "Qs Jc Th 2d", "bad_card_count"),
        (7, "Ah Kd", STRAIGHT_BOARD, "seat_not_dealt_in"),
    ],
)
def test_a_claim_with_bad_cards_is_refused_and_nothing_is_written__LOY_2(
    floor, table12, four, promotion, seat, hole, board, code
):
    hand = played(floor, table12, P1 + 10)
    before = _written()
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table12, hand, seat, hole, board=board)
    assert (error.value.code, error.value.rule) == (code, "LOY-2")
    assert _written() == before


def test_a_hand_from_another_period_is_refused__LOY_2(floor, table12, four, promotion):
    hand = played(floor, table12, P1 + 10)
    before = _written()
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table12, hand, 1, "Ah Kd", minute=P2 + 5)
    assert (error.value.code, error.value.rule) == ("hand_other_period", "LOY-2")
    assert _written() == before


def test_a_settled_period_takes_no_claim__LOY_2(floor, table12, four, promotion):
    hand = played(floor, table12, P1 + 10)
    claim(floor, promotion, table12, hand, 1, "Ah Kd")
    PromotionPeriod.objects.update(status=PeriodStatus.WON)  # as if settled meanwhile
    before = _written()
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table12, hand, 2, "As Kc", minute=P1 + 15)
    assert (error.value.code, error.value.rule) == ("period_settled", "LOY-2")
    assert _written() == before


def test_a_game_the_promotion_does_not_cover_is_refused__LOY_2(cashier, floor, shift, table25, promotion):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table25, count=4)
    hand = played(floor, table25, P1 + 10, pot=50_000)
    assert PromotionDrop.objects.count() == 0
    before = _written()
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table25, hand, 1, "Ah Kd")
    assert (error.value.code, error.value.rule) == ("game_not_covered", "LOY-2")
    assert _written() == before


@pytest.mark.parametrize(
    ("pot", "seats", "code"),
    [(1_900, (1, 2, 3, 4), "pot_under_minimum"), (22_000, (1, 2, 3), "too_few_players")],
)
def test_a_pot_or_table_under_the_minimum_is_refused__LOY_2(
    floor, table12, four, promotion, pot, seats, code
):
    hand = played(floor, table12, P1 + 10, pot=pot, seats=seats)
    before = _written()
    with pytest.raises(DomainError) as error:
        claim(floor, promotion, table12, hand, 1, "Ah Kd")
    assert (error.value.code, error.value.rule) == (code, "LOY-2")
    assert _written() == before


def test_a_reversed_payout_leaves_the_prize_owed_again__LOY_2(
    floor, cashier, manager, manager2, shift, table12, four, promotion
):
    hand = played(floor, table12, P1 + 10)
    claim(floor, promotion, table12, hand, 1, "Ah Kd")
    highhand_sweep(now=at(P2))
    request = DeskRequest(kind=TransactionKind.HIGH_HAND_PAYOUT, player_id=four[0].player_id)
    paid = transaction_route(
        actor=cashier, shift=shift, request=request, idempotency_key=key(), now=at(P2 + 1)
    )
    correction = correction_request(actor=manager, posting=paid.posting, reason="paid to the wrong player")
    correction_approve(actor=manager2, request=correction)
    award = HighHandAward.objects.get()
    assert (award.transaction_id, award.amount_cents) == (None, 10_000)
    assert promotion_fund_available(promotion) == 0
    assert books_problems() == []
