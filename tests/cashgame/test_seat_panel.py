"""A tap on a drawn seat: the services it needs (seat the next on the list, free a no-show's
seat), the actions each seat state offers and no others, and the panel's pages and taps."""

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import PlayerSession, SeatState, SessionEvent, WaitingEntry, WaitStatus
from cashgame.selectors import seat_actions, waiting_queue
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_release, session_seat, session_state_change
from cashgame.services.waiting import waiting_add, waiting_call_next, waiting_seat_next
from tests.cashgame.conftest import at, make_table, seat_players
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def queue(floor, game12):
    """Three players waiting for 1/2, in this order."""
    players = [PlayerFactory(first_name=name, last_name="Horváth") for name in ("Anna", "Boris", "Cyril")]
    for minute, player in enumerate(players):
        waiting_add(actor=floor, game=game12, player=player, now=at(minute))
    return players


# --- seat the next from the waiting list (CSH-7) ---


def test_seat_next_seats_the_first_waiting_player__CSH_7(floor, table12, queue):
    session = waiting_seat_next(actor=floor, table=table12, seat=4, now=at(10))
    assert (session.player, session.table, session.seat, session.state) == (
        queue[0],
        table12,
        4,
        SeatState.AWAITING_BUY_IN,
    )
    entry = WaitingEntry.objects.get(player=queue[0])
    assert (entry.status, entry.table, entry.closed_at) == (WaitStatus.SEATED, table12, at(10))
    assert [e.player for e in waiting_queue(table=table12)] == queue[1:]
    audit = AuditRecord.objects.get(action="cashgame.session_seat")
    assert (audit.actor_name, audit.after["seat"], audit.after["player"]) == ("floor1", 4, queue[0].pk)


def test_seat_next_takes_the_player_called_to_this_table_first__CSH_7(floor, game12, table12, queue):
    other = make_table(game12, 5)
    waiting_call_next(actor=floor, game=game12, table=other, now=at(5))  # Anna holds a seat at 5
    waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(6))
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(7))  # Boris is called here
    assert [e.player.first_name for e in waiting_queue(table=table12)][:2] == ["Boris", "Cyril"]
    session = waiting_seat_next(actor=floor, table=table12, seat=2, now=at(8))
    assert session.player == queue[1]
    assert WaitingEntry.objects.get(player=queue[0]).status == WaitStatus.CALLED  # still holds table 5


def test_seat_next_with_nobody_waiting_is_refused_and_writes_nothing__CSH_7(floor, table12):
    with pytest.raises(DomainError) as error:
        waiting_seat_next(actor=floor, table=table12, seat=4)
    assert (error.value.code, error.value.rule) == ("list_empty", "CSH-7")
    assert PlayerSession.objects.count() == 0


def test_seat_next_on_a_taken_seat_is_refused_and_the_player_keeps_waiting(floor, table12, queue):
    session_seat(actor=floor, table=table12, player=PlayerFactory(), seat=4)
    with pytest.raises(DomainError) as error:
        waiting_seat_next(actor=floor, table=table12, seat=4)
    assert error.value.code == "seat_taken"
    assert WaitingEntry.objects.get(player=queue[0]).status == WaitStatus.WAITING
    assert PlayerSession.objects.count() == 1


def test_cashier_may_not_seat_from_the_list__ROL_1(cashier, table12, queue):
    with pytest.raises(DomainError) as error:
        waiting_seat_next(actor=cashier, table=table12, seat=4)
    assert (error.value.code, error.value.rule) == ("role_required", "ROL-1")
    assert PlayerSession.objects.count() == 0


# --- free a no-show's seat ---


def test_release_frees_a_no_shows_seat_without_money(floor, table12, player):
    session = session_seat(actor=floor, table=table12, player=player, seat=3, now=at(1))
    released = session_release(actor=floor, session=session, now=at(9))
    assert (released.state, released.ended_at, released.cash_out_cents) == (SeatState.ENDED, at(9), None)
    assert not PlayerSession.objects.filter(table=table12, seat=3, ended_at__isnull=True).exists()
    assert SessionEvent.objects.filter(session=session).last().detail == "no-show: seat freed"
    audit = AuditRecord.objects.get(action="cashgame.session_release")
    assert (audit.actor_name, audit.before, audit.after["state"]) == (
        "floor1",
        {"state": "awaiting_buy_in", "seat": 3},
        "ended",
    )


def test_release_of_a_player_with_chips_is_refused__CSH_2(floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    with pytest.raises(DomainError) as error:
        session_release(actor=floor, session=session)
    assert (error.value.code, error.value.rule) == ("has_chips", "CSH-2")
    session.refresh_from_db()
    assert (session.state, session.ended_at) == (SeatState.PLAYING, None)
    assert not AuditRecord.objects.filter(action="cashgame.session_release").exists()


# --- only the actions valid for the seat's state (CSH-6) ---


@pytest.mark.parametrize(
    ("state", "invested", "expected"),
    [
        (SeatState.AWAITING_BUY_IN, 0, ["move", "release"]),
        (SeatState.WAITING_FOR_BUTTON, 10_000, ["posted", "button_passed", "sit_out", "move", "cash_out"]),
        (SeatState.PLAYING, 10_000, ["sit_out", "move", "cash_out"]),
        (SeatState.SITTING_OUT, 10_000, ["missed_blinds", "back", "move", "cash_out"]),
        (SeatState.OWES_BLINDS, 10_000, ["posted", "sit_out", "move", "cash_out"]),
    ],
)
def test_a_seat_offers_only_the_actions_of_its_state__CSH_6(table12, state, invested, expected):
    session = PlayerSession(table=table12, seat=1, state=state, buy_in_cents=invested)
    assert seat_actions(session, table=table12, dealt=False) == expected


def test_a_player_dealt_in_is_neither_moved_nor_cashed_out__CSH_2(table12):
    session = PlayerSession(table=table12, seat=1, state=SeatState.PLAYING, buy_in_cents=10_000)
    assert seat_actions(session, table=table12, dealt=True) == ["sit_out"]


def test_an_empty_seat_takes_a_player_only_at_an_open_table(table12):
    assert seat_actions(None, table=table12, dealt=False) == ["seat"]
    table12.status = "closed"
    assert seat_actions(None, table=table12, dealt=False) == []


# --- the panel and its taps ---


def panel_url(table, seat: int, action: str = "") -> str:
    return f"/cashgame/tables/{table.pk}/seats/{seat}/" + (f"{action}/" if action else "")


def test_panel_of_an_empty_seat_offers_the_next_on_the_list(client, floor, table12, queue):
    client.force_login(floor)
    page = client.get(panel_url(table12, 4), **HTMX)
    html = page.content.decode()
    assert page.templates[0].name == "cashgame/_seat_panel.html"
    assert "Seat Anna Horváth, next on the list" in html
    assert html.count('name="entry"') == 2  # Boris and Cyril, the others on the list
    assert "Posted" not in html and "Sits out" not in html


def test_panel_of_a_playing_seat_shows_its_actions_only(client, floor, cashier, shift, table12):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client.force_login(floor)
    html = client.get(panel_url(table12, 1), **HTMX).content.decode()
    assert 'value="sit_out"' in html
    for other in ("posted", "button_passed", "missed_blinds", "back"):
        assert f'value="{other}"' not in html
    assert "Send " in html and "to the cage with the chips" in html  # the cash-out is the cage's
    assert "Open the cage" not in html  # floor staff do not post money (ROL-1)
    assert "Free the seat" not in html


def test_one_tap_seats_the_next_and_the_room_redraws__CSH_7(client, floor, table12, queue):
    client.force_login(floor)
    response = client.post(panel_url(table12, 4, "seat-next"), **HTMX)
    assert response.status_code == 200
    assert response["HX-Trigger"] == "room-changed"
    html = response.content.decode()
    assert "Anna Horváth takes seat 4 at Table 1 and buys in at the cage." in html
    assert "Free the seat (did not come)" in html  # the panel now shows Anna's seat
    assert PlayerSession.objects.get(table=table12, seat=4).player == queue[0]


def test_a_tap_without_javascript_goes_back_to_the_page(client, floor, table12, queue):
    client.force_login(floor)
    response = client.post(panel_url(table12, 4, "seat-next"), {"next": "/floor/"})
    assert (response.status_code, response["Location"]) == (302, "/floor/")
    response = client.post(panel_url(table12, 5, "seat-next"), {"next": "https://elsewhere.example/"})
    assert response["Location"] == f"/cashgame/tables/{table12.pk}/"  # never off the site


def test_state_tap_changes_the_state_and_is_audited__CSH_6(client, floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client.force_login(floor)
    response = client.post(panel_url(table12, 1, "state"), {"session": session.pk, "do": "sit_out"}, **HTMX)
    assert f"{session.player.full_name}, seat 1: Sitting out." in response.content.decode()
    session.refresh_from_db()
    assert session.state == SeatState.SITTING_OUT
    audit = AuditRecord.objects.filter(action="cashgame.session_state").order_by("pk").last()
    assert (audit.before, audit.after["state"]) == ({"state": "playing"}, "sitting_out")


def test_a_state_not_allowed_is_refused_with_its_reason__CSH_6(client, floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client.force_login(floor)
    response = client.post(panel_url(table12, 1, "state"), {"session": session.pk, "do": "back"}, **HTMX)
    assert "This does not apply to a player who is playing." in response.content.decode()
    session.refresh_from_db()
    assert session.state == SeatState.PLAYING


def test_a_tap_on_a_seat_that_changed_meanwhile_is_refused(client, floor, table12, player):
    session = session_seat(actor=floor, table=table12, player=player, seat=2)
    client.force_login(floor)
    response = client.post(panel_url(table12, 2, "release"), {"session": session.pk + 1}, **HTMX)
    assert "Seat 2 changed meanwhile: look at it again." in response.content.decode()
    assert PlayerSession.objects.get(pk=session.pk).ended_at is None


def test_move_tap_moves_to_the_chosen_table_and_seat(client, floor, cashier, shift, game12, table12):
    other = make_table(game12, 3)
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client.force_login(floor)
    html = client.get(panel_url(table12, 1), **HTMX).content.decode()
    assert f'value="{other.pk}:9"' in html and f'value="{table12.pk}:1"' not in html  # free seats only
    move = {"session": session.pk, "to": f"{other.pk}:9", "chips": "95.50"}
    response = client.post(panel_url(table12, 1, "move"), move, **HTMX)
    assert f"{session.player.full_name} now sits at Table 3, seat 9." in response.content.decode()
    session.refresh_from_db()
    assert (session.table, session.seat, session.last_counted_cents) == (other, 9, 9_550)


def test_move_without_a_target_is_refused_and_nothing_moves(client, floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client.force_login(floor)
    response = client.post(panel_url(table12, 1, "move"), {"session": session.pk, "to": ""}, **HTMX)
    assert "Choose the table and the free seat to move to." in response.content.decode()
    session.refresh_from_db()
    assert (session.table, session.seat) == (table12, 1)


def test_seat_by_card_number(client, floor, table12):
    player = PlayerFactory(card_number="555123")
    client.force_login(floor)
    client.post(panel_url(table12, 7, "seat-card"), {"card": " 555123 "}, **HTMX)
    assert PlayerSession.objects.get(table=table12, seat=7).player == player
    response = client.post(panel_url(table12, 8, "seat-card"), {"card": "999"}, **HTMX)
    assert "No player has the card number “999”." in response.content.decode()
    assert not PlayerSession.objects.filter(seat=8).exists()


def test_a_seat_dealt_in_shows_why_move_and_cash_out_wait__CSH_2(client, floor, cashier, shift, table12):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=1)
    client.force_login(floor)
    html = client.get(panel_url(table12, 1), **HTMX).content.decode()
    assert "Dealt in the hand in progress" in html
    assert "Move to another seat" not in html and "to the cage with the chips" not in html


def test_panel_outside_the_table_is_not_found(client, floor, table12):
    client.force_login(floor)
    assert client.get(panel_url(table12, 10)).status_code == 404


def test_cashier_may_not_open_or_tap_a_seat__ROL_1(client, cashier, table12, queue):
    client.force_login(cashier)
    assert client.get(panel_url(table12, 4)).status_code == 403
    assert client.post(panel_url(table12, 4, "seat-next")).status_code == 403
    assert PlayerSession.objects.count() == 0


def test_state_buttons_on_the_dealer_page_follow_the_state__CSH_6(client, floor, cashier, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    session_state_change(actor=floor, session=session, action="sit_out")
    client.force_login(floor)
    html = client.get(f"/cashgame/tables/{table12.pk}/dealer/").content.decode()
    assert 'name="action" value="missed_blinds"' in html and 'name="action" value="back"' in html
    assert 'name="action" value="posted"' not in html and 'name="action" value="sit_out"' not in html
