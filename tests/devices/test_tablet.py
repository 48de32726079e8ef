"""The dealer tablet logs its table's hands, one tap per step (ROL-2): New hand deals in every
player in play, the flop, the end with the pot (rake and drop as the floor's dealer page: RAK-3,
JKP-1, JKP-2), and a void only after it is confirmed (FLR-1)."""

import pytest

from cardroom.models import AuditRecord
from cashgame.models import Hand, HandStatus
from cashgame.services.sessions import session_state_change
from cashier.models import AccountKind
from cashier.selectors import account_amount, jackpot_fund_balance
from devices.models import Device

pytestmark = pytest.mark.django_db


def test_one_hand_one_tap_per_step_with_exact_rake__ROL_2_RAK_3_JKP_2(tablet, table12):
    device = Device.objects.get()
    page = tablet.get("/tablet/")
    # The game's first hand: the button is drawn, the dealer taps the seat that won (HND-2).
    assert (page.context["playing_count"], page.context["button_draw"], page.context["next_button"]) == (
        4,
        True,
        None,
    )
    assert "New hand" in page.content.decode() and "First hand of the game" in page.content.decode()

    assert tablet.post("/tablet/start/", {"button_seat": "1"})["Location"] == "/tablet/"
    hand = Hand.objects.get(table=table12)
    assert (hand.number, hand.dealt_seats, hand.button_seat, hand.started_by) == (
        1,
        [1, 2, 3, 4],
        1,
        device.user,
    )
    page = tablet.get("/tablet/").content.decode()
    assert "Hand 1 dealt." in page and "Flop dealt" in page and "New hand" not in page

    assert tablet.post("/tablet/flop/")["Location"] == "/tablet/"
    hand.refresh_from_db()
    assert hand.saw_flop is True
    assert "Flop dealt" not in tablet.get("/tablet/").context["hand"].status.replace("in_progress", "")

    assert tablet.post("/tablet/end/", {"pot": "87"})["Location"] == "/tablet/"
    hand.refresh_from_db()
    # 5 % of 87.00 is 4.35, down to the 0.50 chip: 4.00 (RAK-3); four dealt in at 1/2 and a pot
    # over 20.00: 1.00 to the jackpot (JKP-1, JKP-2).
    assert (hand.status, hand.pot_cents, hand.rake_cents, hand.jackpot_drop_cents, hand.ended_by) == (
        HandStatus.ENDED,
        8_700,
        400,
        100,
        device.user,
    )
    assert account_amount(kind=AccountKind.RAKE_REVENUE) == 400 and jackpot_fund_balance() == 100
    page = tablet.get("/tablet/").content.decode()
    assert "Hand 1 ended: pot 87.00 EUR, rake 4.00 EUR, jackpot drop 1.00 EUR." in page
    assert "Last hand 1" in page and "New hand" in page
    actions = list(
        AuditRecord.objects.filter(actor=device.user).order_by("pk").values_list("action", flat=True)
    )
    assert actions == [
        "devices.device_pair",
        "devices.tablet_hand_start",
        "devices.tablet_hand_flop",
        "cashgame.hand_end",
    ]


def test_new_hand_deals_in_only_the_players_in_play_and_takes_the_tapped_button__ROL_2_CSH_5(
    tablet, table12, players, floor
):
    session_state_change(actor=floor, session=players[1], action="sit_out")
    page = tablet.get("/tablet/")
    assert page.context["playing_count"] == 3
    assert 'name="button_seat" value="2"' not in page.content.decode()  # no button on a seat out
    tablet.post("/tablet/start/", {"button_seat": "3"})
    hand = Hand.objects.get()
    assert (hand.dealt_seats, hand.button_seat) == ([1, 3, 4], 3)
    # The next hand's suggestion is the seat in play after the last button.
    tablet.post("/tablet/end/", {"pot": "3"})
    assert tablet.get("/tablet/").context["next_button"] == 4


def test_the_polled_drawing_keeps_the_tapped_button(tablet):
    assert tablet.get("/tablet/seats/", {"button_seat": "3"}).context["next_button"] == 3
    # No one at seat 8: no button chosen, the first hand's is still to be drawn.
    assert tablet.get("/tablet/seats/", {"button_seat": "8"}).context["next_button"] is None


def test_misdeal_asks_for_confirmation_first__ROL_2_FLR_1(tablet, table12):
    device = Device.objects.get()
    tablet.post("/tablet/start/", {"button_seat": "1"})
    response = tablet.post("/tablet/void/", {"reason": "misdeal"})
    assert response["Location"] == "/tablet/?confirm=misdeal"
    hand = Hand.objects.get()
    assert hand.status == HandStatus.IN_PROGRESS and not AuditRecord.objects.filter(
        action="cashgame.hand_void"
    )
    page = tablet.get("/tablet/?confirm=misdeal").content.decode()
    assert "Misdeal: void hand 1?" in page and "Yes, void hand 1" in page and "No, back to the hand" in page
    tablet.post("/tablet/void/", {"reason": "misdeal", "confirmed": "yes"})
    hand.refresh_from_db()
    assert (hand.status, hand.void_reason, hand.rake_cents, hand.ended_by) == (
        "voided",
        "misdeal",
        0,
        device.user,
    )
    record = AuditRecord.objects.get(action="cashgame.hand_void")
    assert (record.actor, record.after["reason"]) == (device.user, "misdeal")
    page = tablet.get("/tablet/")
    assert "Hand 1 is void: no rake, the chips go back." in page.content.decode()
    assert page.context["next_button"] == hand.button_seat == 1  # dealt again, the button stays


def test_a_bad_pot_keeps_what_was_typed_and_writes_nothing__ROL_2(tablet):
    tablet.post("/tablet/start/", {"button_seat": "1"})
    tablet.post("/tablet/flop/")
    before = AuditRecord.objects.count()
    response = tablet.post("/tablet/end/", {"pot": "12abc"})
    assert response.status_code == 400
    assert response.context["end_form"].errors["pot"]
    assert 'value="12abc"' in response.content.decode()
    response = tablet.post("/tablet/end/", {"pot": "9000"})
    assert "Large pot: check it" in response.content.decode()  # shown back first (CAG-5)
    # Confirmed, it is more than the 1,200.00 EUR in play.
    response = tablet.post("/tablet/end/", {"pot": "9000", "confirm_pot": "900000"})
    assert response.status_code == 400 and 'value="9000"' in response.content.decode()
    assert "more than all the chips in play at Table 1 (1,200.00 EUR)" in response.content.decode()
    assert Hand.objects.get().status == HandStatus.IN_PROGRESS and AuditRecord.objects.count() == before


def test_new_hand_with_fewer_than_two_in_play_is_refused_clearly(tablet, players, floor):
    for session in players[1:]:
        session_state_change(actor=floor, session=session, action="sit_out")
    page = tablet.get("/tablet/").content.decode()
    assert "A hand needs at least two players in play." in page and "New hand" not in page
    response = tablet.post("/tablet/start/")
    assert Hand.objects.count() == 0
    assert response.status_code == 400
    assert "A hand needs at least two players dealt in." in response.content.decode()
