"""No button that will be refused: every enabled button of the seat panel, the waiting-list page
and the tables page, tapped as drawn, is carried out; what the rules forbid now is a disabled
button with the reason in words (CSH-2, CSH-3, CSH-5, CSH-6, CSH-7, WTL-1, WTL-2)."""

import pytest

from cashgame.models import WaitingEntry
from cashgame.selectors.drawings import cash_table_drawings
from cashgame.services.hands import hand_end, hand_start
from cashgame.services.sessions import (
    session_buy_in,
    session_seat,
    session_stack_report,
    session_state_change,
)
from cashgame.services.waiting import waiting_add, waiting_call_next
from cashgame.services.waiting_remote import waiting_join_remote
from players.models import Player
from tests.cashgame.conftest import at, key, make_game, make_table, seat_players
from tests.cashgame.taps import each_tap, page_taps
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_attempts_counted():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def panel(client, table, seat: int, **params) -> str:
    return client.get(f"/cashgame/tables/{table.pk}/seats/{seat}/", params, **HTMX).content.decode()


def panel_outcome(response) -> str:
    html = response.content.decode()
    return "success" if 'sheet-outcome success"' in html else html


def page_outcome(response) -> str:
    """The one message a page's tap left (followed to the page it went back to)."""
    shown = [(message.tags, str(message)) for message in response.context["messages"]]
    return "success" if [tags for tags, _text in shown] == ["success"] else str(shown)


@pytest.fixture
def room(floor, cashier, shift, game12, game25, table12):
    """Table 1 (1/2) with three players in play, table 2 (2/5) where Xena plays; on the 1/2 list:
    Lucky (joined from a phone, no card), Xena (plays at table 2), Anna."""
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=3)
    xena = PlayerFactory(first_name="Xena", last_name="Hrubá")
    session_seat(actor=floor, table=make_table(game25, 2), player=xena, seat=1, now=at(1))
    waiting_join_remote(
        game_ids=[game12.pk], nickname="Lucky", phone="905111222", address="203.0.113.5", now=at(2)
    )
    waiting_add(actor=floor, game=game12, player=xena, now=at(3))
    anna = PlayerFactory(first_name="Anna", last_name="Horváth")
    waiting_add(actor=floor, game=game12, player=anna, now=at(4))
    return {"xena": xena, "anna": anna}


def test_every_button_of_an_empty_seats_panel_is_carried_out__WTL_1_WTL_2_CSH_7(client, floor, table12, room):
    PlayerFactory(first_name="Lucia", last_name="Nováková")
    client.force_login(floor)
    html = panel(client, table12, 5)
    assert 'data-action="seat-next"' not in html  # Lucky, the next, is checked in first
    assert "Plays at Table 2, seat 1: a player has one seat at a time." in html  # Xena: disabled
    found = panel(client, table12, 5, entry=_entry("Lucky"), q="Nováková")
    taps = page_taps(found)
    labels = sorted(tap.label for tap in taps)
    assert labels[0] == "Anna Horváth" and labels[1].startswith(
        f"Seat Lucia Nováková card {_card('Lucia')} · "
    )
    assert len(labels) == 2
    assert each_tap(client, taps, panel_outcome, **HTMX) == {"success"}


def test_a_must_move_player_in_a_hand_makes_the_move_wait_and_the_list_stays_open__WTL_2(
    client, floor, cashier, shift, game12, table12, room
):
    must = make_game(name="NLHE 1/2 must-move", must_move_for=game12)
    must_table = make_table(must, 5)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=must_table, count=2)
    hand_start(actor=floor, table=must_table, seats=[1, 2], button_seat=1)
    client.force_login(floor)
    html = panel(client, table12, 5)
    assert "is dealt in the hand in progress at Table 5: the move waits until it ends." in html
    assert 'data-action="must-move"' not in html and 'data-action="seat-next"' not in html
    taps = page_taps(html)
    assert [tap.label for tap in taps] == ["Anna Horváth"]
    assert each_tap(client, taps, panel_outcome, **HTMX) == {"success"}


def test_a_short_stack_cannot_be_put_back_in_play_and_says_why__CSH_5(client, floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    session_stack_report(actor=floor, session=session, chips_cents=150)  # under the 2.00 big blind
    client.force_login(floor)
    html = panel(client, table12, 1)
    assert "Less than one big blind (2.00 EUR) in chips: a top-up at the cage comes first." in html
    assert 'value="back"' not in html
    taps = page_taps(html)
    assert [tap.label for tap in taps] == ["Missed the blinds", "2", "3", "4"]  # and moves to free seats
    assert each_tap(client, taps, panel_outcome, **HTMX) == {"success"}


def test_during_a_hand_a_dealt_player_may_only_sit_out_and_the_top_up_waits__CSH_2_CSH_3(
    client, floor, cashier, shift, table12
):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=1)
    client.force_login(floor)
    html = panel(client, table12, 1)
    assert "Top-up:</strong> after the hand in progress: chips are added between hands only." in html
    assert "Cash-out:</strong> after the hand in progress." in html
    taps = page_taps(html)
    assert [tap.label for tap in taps] == ["Sits out"]
    assert each_tap(client, taps, panel_outcome, **HTMX) == {"success"}


def test_a_new_player_and_a_no_show_offer_only_what_their_state_allows__CSH_6(
    client, floor, cashier, shift, table12, player
):
    session, _other = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    # The game's first hand has ended: from now on a new player waits for the button (CSH-6).
    hand_end(
        actor=floor, hand=hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=1), pot_cents=300
    )
    session_state_change(actor=floor, session=session, action="sit_out")
    session_state_change(actor=floor, session=session, action="missed_blinds")
    session_seat(actor=floor, table=table12, player=player, seat=4, now=at(2))
    client.force_login(floor)
    for seat, first in ((1, ["Posted the missed blinds", "Sits out"]), (4, ["Free the seat (did not come)"])):
        taps = page_taps(panel(client, table12, seat))
        assert [tap.label for tap in taps][: len(first)] == first
        assert each_tap(client, taps, panel_outcome, **HTMX) == {"success"}


def test_the_seat_held_by_a_called_player_is_offered_to_them_first__CSH_7(client, floor, game12, table12):
    anna, boris = PlayerFactory(first_name="Anna"), PlayerFactory(first_name="Boris")
    for minute, person in enumerate((anna, boris)):
        waiting_add(actor=floor, game=game12, player=person, now=at(minute))
    first = waiting_call_next(actor=floor, game=game12, table=table12, now=at(5))
    second = waiting_call_next(actor=floor, game=game12, table=table12, now=at(6))
    assert (first.seat, second.seat) == (1, 2)
    client.force_login(floor)
    html = panel(client, table12, 2)
    assert f"Seat {boris.full_name}, next on the list" in html  # seat 2 is the one Boris holds
    response = client.post(f"/cashgame/tables/{table12.pk}/seats/2/seat-next/", **HTMX)
    assert f"{boris.full_name} takes seat 2 at Table 1" in response.content.decode()


def test_every_button_of_the_waiting_list_page_is_carried_out__CSH_7_WTL_1(
    client, floor, game12, game25, table12, room
):
    boris = PlayerFactory(first_name="Boris", last_name="Kráľ")
    waiting_add(actor=floor, game=game12, player=boris, now=at(5))
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(6))  # Lucky, the first, holds seat 4
    client.force_login(floor)
    html = client.get("/cashgame/waiting/").content.decode()
    # Lucky, called without a card, is checked in at the seat held: its panel finds or registers.
    lucky = _entry("Lucky")
    link = f"/cashgame/tables/{table12.pk}/seats/4/?entry={lucky}&amp;next=/cashgame/waiting/"
    assert f'href="{link}">Check in and seat: Table 1, seat 4</a>' in html
    seat_page = client.get(link.replace("&amp;", "&")).content.decode()
    assert "Check in Lucky" in seat_page and 'href="/cashgame/waiting/">Back</a>' in seat_page
    assert html.count("Plays at Table 2, seat 1: a player has one seat at a time.") == 1  # Xena
    assert 'data-action="check-in"' in html and "Checked in" not in html
    taps = page_taps(html)
    labels = [tap.label for tap in taps]
    # Anna's seat is one tap; Boris would go ahead of her, so his form asks why first (WTL-2);
    # Lucky has no card.
    assert labels.count("Call the next") == 1 and labels.count("Seat") == 1
    assert html.count('placeholder="Ahead of Anna Horváth: why?"') == 1
    assert each_tap(client, taps, page_outcome, follow=True) == {"success"}


def test_a_table_that_cannot_close_says_why__CSH_2(client, floor, cashier, shift, game12, table12):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    empty = make_table(game12, 7)
    client.force_login(floor)
    html = client.get("/cashgame/").content.decode()
    assert "Players are seated: they cash out or move first." in html
    closes = [tap for tap in page_taps(html) if tap.label == "Close"]
    assert [tap.action for tap in closes] == [f"/cashgame/tables/{empty.pk}/close/"]
    assert each_tap(client, page_taps(html), page_outcome, follow=True) == {"success"}


def _entry(nickname: str) -> int:
    return WaitingEntry.objects.get(nickname=nickname).pk


def _card(first_name: str) -> str:
    return Player.objects.get(first_name=first_name).card_number


def test_the_dealer_pages_seat_buttons_leave_out_a_short_stacks_way_back_in__CSH_5_CSH_6(
    client, floor, cashier, shift, table12
):
    short, _other = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    session_stack_report(actor=floor, session=short, chips_cents=150)  # under the 2.00 big blind
    client.force_login(floor)
    html = client.get(f"/cashgame/tables/{table12.pk}/dealer/").content.decode()
    taps = [tap for tap in page_taps(html) if tap.action == f"/cashgame/sessions/{short.pk}/state/"]
    assert [tap.data["action"] for tap in taps] == ["missed_blinds"]  # not "back": a top-up first
    assert each_tap(client, taps, page_outcome, follow=True) == {"success"}


def test_at_a_new_game_a_new_player_is_drawn_playing_and_offered_no_post__CSH_6(
    client, floor, cashier, shift, table12
):
    """When a table opens nobody owes a blind: the first hand deals in every player seated with
    chips, so the floor view draws a new player as playing and his panel offers no post. Once a
    hand has ended, a newcomer waits for the button and is offered the post."""
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)

    def newcomer(seat: int) -> None:  # bought in at the cage, nothing tapped for him
        session_buy_in(
            actor=cashier,
            shift=shift,
            table=table12,
            player=PlayerFactory(id_verified_at=at(0)),
            seat=seat,
            amount_cents=table12.game.min_buy_in_cents,
            idempotency_key=key(),
            now=at(2),
        )

    def drawn(seat: int) -> tuple[str, str]:
        (drawing,) = cash_table_drawings()
        row = drawing["seats"][seat - 1]
        return row["state"], row["label"]

    def post_taps(seat: int) -> list[str]:
        taps = page_taps(panel(client, table12, seat))
        return [tap.label for tap in taps if tap.label in ("Posted the blinds", "Button passed: plays")]

    client.force_login(floor)
    newcomer(5)
    assert drawn(5) == ("playing", "Playing")
    assert post_taps(5) == []
    hand = hand_start(actor=floor, table=table12, seats=[1, 2, 5], button_seat=1, now=at(3))
    hand_end(actor=floor, hand=hand, pot_cents=300, now=at(4))
    newcomer(6)  # after the first hand: CSH-6
    assert drawn(5) == ("playing", "Playing")
    assert drawn(6) == ("waiting_for_button", "New player: waits for the button")
    assert post_taps(6) == ["Posted the blinds", "Button passed: plays"]
