import pytest

from cardroom.errors import DomainError
from cashgame.models import CashTable, Hand, HandStatus
from cashgame.services.hands import hand_end, hand_flop, hand_start, hand_void
from cashier.models import AccountKind, Posting
from cashier.selectors import account_amount, jackpot_fund_balance, ledger_total
from tests.cashgame.conftest import at, seat_players

pytestmark = pytest.mark.django_db


def rake_revenue() -> int:
    return account_amount(kind=AccountKind.RAKE_REVENUE)


def play(floor, table, seats, pot, *, flop=True, minute=10):
    hand = hand_start(actor=floor, table=table, seats=seats, button_seat=seats[0], now=at(minute))
    if flop:
        hand = hand_flop(actor=floor, hand=hand, now=at(minute + 0.5))
    return hand_end(actor=floor, hand=hand, pot_cents=pot, now=at(minute + 1))


@pytest.fixture
def four_at_12(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


def test_pre_flop_hand_pays_no_rake_and_no_drop__RAK_2(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3, 4], 4_000, flop=False)
    assert (hand.status, hand.rake_cents, hand.jackpot_drop_cents, hand.posting) == (
        HandStatus.ENDED,
        0,
        0,
        None,
    )
    assert rake_revenue() == 0 and jackpot_fund_balance() == 0
    assert not Posting.objects.filter(description__startswith="Rake").exists()


def test_220_eur_pot_pays_the_5_eur_cap_not_11__RAK_3(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3, 4], 22_000)
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (500, 100)
    entries = {
        entry.account.kind: entry.amount_cents for entry in hand.posting.entries.select_related("account")
    }
    assert entries == {
        AccountKind.CHIPS_IN_PLAY: 600,
        AccountKind.RAKE_REVENUE: -500,
        AccountKind.JACKPOT_FUND: -100,
    }
    assert rake_revenue() == 500 and jackpot_fund_balance() == 100
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=f"table:{table12.pk}") == 120_000 - 600
    assert ledger_total() == 0


def test_rake_rounds_down_to_the_smallest_chip__RAK_3(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3, 4], 3_900)  # 5 % = 1.95 EUR -> 1.50 EUR
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (150, 100)


def test_pot_under_20_eur_takes_no_jackpot_drop__JKP_2(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3, 4], 1_950)
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (50, 0)
    assert jackpot_fund_balance() == 0


def test_1_2_table_with_3_players_takes_no_jackpot_drop__JKP_1(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3], 22_000)
    assert (hand.rake_cents, hand.jackpot_drop_cents, hand.players_dealt) == (500, 0, 3)
    assert jackpot_fund_balance() == 0


def test_2_5_table_never_drops__JKP_1(cashier, floor, shift, table25):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table25, count=9, amount=100_000)
    hand = play(floor, table25, list(range(1, 10)), 90_000)
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (500, 0)
    assert jackpot_fund_balance() == 0


def test_voided_hand_pays_no_rake__RAK_4_FLR_1(floor, table12, four_at_12):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    hand_flop(actor=floor, hand=hand, now=at(11))
    hand = hand_void(actor=floor, hand=hand, reason="misdeal", now=at(12))
    assert (hand.status, hand.void_reason, hand.rake_cents, hand.posting) == ("voided", "misdeal", 0, None)
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=22_000)
    assert (error.value.code, error.value.rule) == ("hand_already_voided", "RAK-4")
    assert rake_revenue() == 0
    assert CashTable.objects.get(pk=table12.pk).hand_in_progress is False


def test_a_hand_ended_twice_is_refused__RAK_1(floor, table12, four_at_12):
    hand = play(floor, table12, [1, 2, 3, 4], 22_000)
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=22_000, now=at(20))
    assert (error.value.code, error.value.status_code) == ("hand_already_ended", 409)
    assert rake_revenue() == 500
    assert Posting.objects.filter(description__startswith="Rake").count() == 1


@pytest.mark.parametrize("pot", [0, -500, 120_050])
def test_negative_zero_or_pots_beyond_the_chips_in_play_are_refused__CSH_4(floor, table12, four_at_12, pot):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    hand_flop(actor=floor, hand=hand, now=at(11))
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=pot, now=at(12))
    assert error.value.code in {"invalid_pot", "pot_exceeds_chips_in_play"}
    hand.refresh_from_db()
    assert (hand.status, hand.pot_cents) == (HandStatus.IN_PROGRESS, None)
    assert rake_revenue() == 0


def test_second_hand_while_one_is_in_progress_is_refused(floor, table12, four_at_12):
    hand_start(actor=floor, table=table12, seats=[1, 2], now=at(10))
    with pytest.raises(DomainError) as error:
        hand_start(actor=floor, table=table12, seats=[3, 4], now=at(11))
    assert error.value.code == "hand_in_progress"
    assert Hand.objects.count() == 1


def test_dealing_to_an_empty_seat_is_refused__FLR_1(floor, table12, four_at_12):
    with pytest.raises(DomainError) as error:
        hand_start(actor=floor, table=table12, seats=[1, 2, 7], now=at(10))
    assert (error.value.code, error.value.rule) == ("empty_seat", "FLR-1")
    assert not Hand.objects.exists()


def test_hands_are_numbered_per_table_and_record_who_was_dealt_in(floor, table12, four_at_12):
    first = play(floor, table12, [1, 2, 3, 4], 1_000, flop=False, minute=10)
    second = play(floor, table12, [2, 3], 1_000, flop=False, minute=12)
    assert (first.number, second.number) == (1, 2)
    assert second.dealt_in == [[2, four_at_12[1].player_id], [3, four_at_12[2].player_id]]
