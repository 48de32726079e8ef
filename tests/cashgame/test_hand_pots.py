"""The hand log with side pots and dead money: each pot's rake and jackpot drop share (RAK-6) and
the dead blinds of players coming back in the main pot (POT-4)."""

import pytest

from cardroom.errors import DomainError
from cashgame.models import CashTable, Hand, HandStatus, PlayerSession, SeatState
from cashgame.services.hands import hand_end, hand_flop, hand_start, hand_void
from cashgame.services.sessions import session_state_change
from cashier.models import AccountKind, Posting
from cashier.selectors import account_amount, jackpot_fund_balance, ledger_total
from tests.cashgame.conftest import at, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_at_12(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


def flopped(floor, table, seats=(1, 2, 3, 4), minute=10) -> Hand:
    hand = hand_start(actor=floor, table=table, seats=list(seats), button_seat=seats[0], now=at(minute))
    return hand_flop(actor=floor, hand=hand, now=at(minute + 0.5))


def assert_nothing_written(hand: Hand, table: CashTable) -> None:
    hand.refresh_from_db()
    assert (hand.status, hand.pot_cents, hand.pots, hand.posting_id) == (
        HandStatus.IN_PROGRESS,
        None,
        [],
        None,
    )
    assert CashTable.objects.get(pk=table.pk).hand_in_progress is True
    assert not Posting.objects.filter(description__startswith="Rake").exists()


def test_side_pot_rake_split__RAK_6(floor, table12, four_at_12):
    hand = flopped(floor, table12)
    # 280 EUR in a main pot of 80 (the short all-in's) and a side pot of 200: the hand's rake is
    # capped once at 5 EUR and split 1.00 / 4.00, the 1 EUR drop 0 / 1.00 (0.50 chips).
    hand = hand_end(actor=floor, hand=hand, pot_cents=28_000, side_pots_cents=[8_000, 20_000], now=at(11))
    assert (hand.rake_cents, hand.jackpot_drop_cents) == (500, 100)
    assert hand.pots == [
        {"amount_cents": 8_000, "rake_cents": 100, "drop_cents": 0},
        {"amount_cents": 20_000, "rake_cents": 400, "drop_cents": 100},
    ]
    assert Hand.objects.get(pk=hand.pk).pots == hand.pots
    # One posting for the hand, as without side pots.
    assert account_amount(kind=AccountKind.RAKE_REVENUE) == 500 and jackpot_fund_balance() == 100
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table12.reference) == 120_000 - 600
    assert ledger_total() == 0


def test_one_pot_is_recorded_with_the_whole_rake__RAK_6(floor, table12, four_at_12):
    hand = hand_end(actor=floor, hand=flopped(floor, table12), pot_cents=22_000, now=at(11))
    assert hand.pots == [{"amount_cents": 22_000, "rake_cents": 500, "drop_cents": 100}]


def test_no_flop_no_rake_on_any_pot__RAK_2_RAK_6(floor, table12, four_at_12):
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 3, 4], now=at(10))
    hand = hand_end(actor=floor, hand=hand, pot_cents=4_000, side_pots_cents=[1_000, 3_000], now=at(11))
    assert hand.pots == [
        {"amount_cents": 1_000, "rake_cents": 0, "drop_cents": 0},
        {"amount_cents": 3_000, "rake_cents": 0, "drop_cents": 0},
    ]
    assert hand.posting is None


@pytest.mark.parametrize(
    ("side_pots", "code"),
    [
        ([8_000, 19_000], "side_pots_do_not_add_up"),
        ([0, 28_000], "invalid_side_pots"),
        ([], "invalid_side_pots"),
        ([5_000, 5_000, 5_000, 5_000, 8_000], "invalid_side_pots"),  # five pots, four dealt in
        ([True, 27_999], "invalid_side_pots"),
        (["80.00", 20_000], "invalid_side_pots"),
    ],
)
def test_side_pots_that_do_not_describe_the_pot_are_refused__RAK_6(
    floor, table12, four_at_12, side_pots, code
):
    hand = flopped(floor, table12)
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=28_000, side_pots_cents=side_pots, now=at(11))
    assert (error.value.code, error.value.rule) == (code, "RAK-6")
    assert_nothing_written(hand, table12)


def owes_and_posts(floor, session) -> PlayerSession:
    session = session_state_change(actor=floor, session=session, action="sit_out", now=at(5))
    session = session_state_change(actor=floor, session=session, action="missed_blinds", now=at(6))
    return session_state_change(actor=floor, session=session, action="posted", now=at(7))


def test_posting_missed_blinds_records_the_dead_small_blind__POT_4_CSH_6(floor, table12, four_at_12):
    session = owes_and_posts(floor, four_at_12[3])
    assert (session.state, session.dead_blind_cents) == (SeatState.PLAYING, 100)
    assert session.events.last().detail == "posted: playing; dead blind 100"
    # A new player who posts to come in between the blinds posts a live big blind: no dead money.
    assert [s.dead_blind_cents for s in PlayerSession.objects.order_by("seat")] == [0, 0, 0, 100]


def test_dead_blind_joins_the_main_pot_of_the_next_hand__POT_4(floor, table12, four_at_12):
    owes_and_posts(floor, four_at_12[3])
    hand = flopped(floor, table12)
    assert hand.dead_cents == 100
    hand = hand_end(actor=floor, hand=hand, pot_cents=10_100, side_pots_cents=[4_100, 6_000], now=at(11))
    assert (hand.status, hand.dead_cents, [pot["amount_cents"] for pot in hand.pots]) == (
        HandStatus.ENDED,
        100,
        [4_100, 6_000],
    )
    # The dead blind is spent: the next hand has none.
    assert PlayerSession.objects.get(pk=four_at_12[3].pk).dead_blind_cents == 0
    assert flopped(floor, table12, minute=20).dead_cents == 0


def test_main_pot_smaller_than_the_dead_money_is_refused__POT_4(floor, table12, four_at_12):
    owes_and_posts(floor, four_at_12[3])
    hand = flopped(floor, table12)
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=10_050, side_pots_cents=[50, 10_000], now=at(11))
    assert (error.value.code, error.value.rule) == ("main_pot_below_dead_money", "POT-4")
    with pytest.raises(DomainError) as error:
        hand_end(actor=floor, hand=hand, pot_cents=50, now=at(11))
    assert (error.value.code, error.value.rule) == ("main_pot_below_dead_money", "POT-4")
    assert_nothing_written(hand, table12)
    assert PlayerSession.objects.get(pk=four_at_12[3].pk).dead_blind_cents == 100


def test_a_voided_hand_leaves_the_dead_blind_for_the_next__POT_4_RAK_4(floor, table12, four_at_12):
    owes_and_posts(floor, four_at_12[3])
    hand = flopped(floor, table12)
    hand_void(actor=floor, hand=hand, reason="misdeal", now=at(11))
    assert PlayerSession.objects.get(pk=four_at_12[3].pk).dead_blind_cents == 100
    assert flopped(floor, table12, minute=12).dead_cents == 100


def test_dead_blind_of_a_player_not_dealt_in_waits__POT_4(floor, table12, four_at_12):
    owes_and_posts(floor, four_at_12[3])
    hand = flopped(floor, table12, seats=(1, 2, 3))
    assert hand.dead_cents == 0
    hand_end(actor=floor, hand=hand, pot_cents=3_000, now=at(11))
    assert PlayerSession.objects.get(pk=four_at_12[3].pk).dead_blind_cents == 100


def test_sitting_out_after_posting_takes_the_dead_blind_back__POT_4(floor, table12, four_at_12):
    session = owes_and_posts(floor, four_at_12[3])
    session = session_state_change(actor=floor, session=session, action="sit_out", now=at(8))
    assert (session.state, PlayerSession.objects.get(pk=session.pk).dead_blind_cents) == (
        SeatState.SITTING_OUT,
        0,
    )


def test_dealer_api_ends_a_hand_with_side_pots__RAK_6(api, floor, table12, four_at_12):
    owes_and_posts(floor, four_at_12[3])
    client = api(floor)
    started = client.post(f"/api/cashgame/tables/{table12.pk}/hands/", {"seats": [1, 2, 3, 4]}).json()
    assert (started["dead_cents"], started["pots"]) == (100, [])
    client.post(f"/api/cashgame/hands/{started['id']}/flop/")
    refused = client.post(
        f"/api/cashgame/hands/{started['id']}/end/", {"pot_cents": 28_000, "side_pots_cents": [50, 27_950]}
    )
    assert (refused.status_code, refused.json()["rule"]) == (400, "POT-4")
    malformed = client.post(
        f"/api/cashgame/hands/{started['id']}/end/", {"pot_cents": 1, "side_pots_cents": [0]}
    )
    assert (malformed.status_code, list(malformed.json()["detail"])) == (400, ["side_pots_cents"])
    ended = client.post(
        f"/api/cashgame/hands/{started['id']}/end/", {"pot_cents": 28_000, "side_pots_cents": [8_000, 20_000]}
    )
    assert ended.status_code == 200, ended.json()
    assert (ended.json()["rake_cents"], ended.json()["jackpot_drop_cents"], ended.json()["dead_cents"]) == (
        500,
        100,
        100,
    )
    assert ended.json()["pots"] == [
        {"amount_cents": 8_000, "rake_cents": 100, "drop_cents": 0},
        {"amount_cents": 20_000, "rake_cents": 400, "drop_cents": 100},
    ]
    listed = client.get(f"/api/cashgame/tables/{table12.pk}/hands/").json()["results"]
    assert listed[0]["pots"] == ended.json()["pots"]


def test_dealer_page_ends_a_hand_with_side_pots__RAK_6(client, floor, table12, four_at_12):
    client.force_login(floor)
    base = f"/cashgame/tables/{table12.pk}/dealer/"
    client.post(base + "start/", {"seats": ["1", "2", "3", "4"], "button_seat": "1"})
    client.post(base + "flop/")
    assert client.post(base + "end/", {"side_pots": "80 + 200"}).status_code == 302
    hand = Hand.objects.get()
    assert (hand.status, hand.pot_cents, hand.rake_cents) == (HandStatus.ENDED, 28_000, 500)
    page = client.get(base).content.decode()
    assert "Main pot 80.00 EUR · rake 1.00 EUR · jackpot drop 0.00 EUR" in page
    assert "Side pot 200.00 EUR · rake 4.00 EUR · jackpot drop 1.00 EUR" in page


def test_dealer_page_refuses_pots_that_do_not_add_up__RAK_6(client, floor, table12, four_at_12):
    client.force_login(floor)
    base = f"/cashgame/tables/{table12.pk}/dealer/"
    client.post(base + "start/", {"seats": ["1", "2", "3", "4"], "button_seat": "1"})
    client.post(base + "flop/")
    response = client.post(base + "end/", {"pot": "280", "side_pots": "80 + 100"}, follow=True)
    assert "The pots add up to 180.00 EUR, not to the pot of 280.00 EUR" in response.content.decode()
    assert Hand.objects.get().status == HandStatus.IN_PROGRESS


def test_dealer_page_voids_a_hand_only_once_confirmed__FLR_1(client, floor, table12, four_at_12):
    client.force_login(floor)
    base = f"/cashgame/tables/{table12.pk}/dealer/"
    client.post(base + "start/", {"seats": ["1", "2", "3", "4"], "button_seat": "1"})
    response = client.post(base + "void/", {"reason": "duplicate_card"})
    assert response["Location"] == base + "?confirm=duplicate_card"
    assert Hand.objects.get().status == HandStatus.IN_PROGRESS
    assert "Duplicate card: void hand 1?" in client.get(response["Location"]).content.decode()
    client.post(base + "void/", {"reason": "duplicate_card", "confirmed": "yes"})
    assert (Hand.objects.get().status, Hand.objects.get().void_reason) == (
        HandStatus.VOIDED,
        "duplicate_card",
    )


def test_dealer_page_draws_the_seats_in_play_and_their_valid_actions__CSH_6(
    client, floor, table12, four_at_12, django_assert_max_num_queries
):
    session_state_change(actor=floor, session=four_at_12[3], action="sit_out")
    client.force_login(floor)
    client.get(f"/cashgame/tables/{table12.pk}/dealer/")  # the user's roles and the venue
    with django_assert_max_num_queries(10):
        response = client.get(f"/cashgame/tables/{table12.pk}/dealer/")
    html = response.content.decode()
    assert (html.count('value="sit_out"'), html.count('value="back"'), html.count('value="posted"')) == (
        3,
        1,
        0,
    )
    assert [row["seat"] for row in response.context["seats"] if row["playing"]] == [1, 2, 3]
