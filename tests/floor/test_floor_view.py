"""The floor view (/floor/): the whole room drawn, who may see it and act on it (ROL-1), what it
shows, in English and Slovak, and the live fragment's pinned query count."""

import random
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from cashgame.models import WaitingEntry, WaitStatus
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_seat, session_state_change
from cashgame.services.tables import table_close
from cashgame.services.waiting import waiting_add, waiting_call_next, waiting_remove
from screens.floor import room_get
from tests.cashgame.conftest import make_game, make_table, seat_players
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.queries import hold_caches
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.factories import seat_players as register_entries
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db

LEVELS = [(25, 50, 1200), (50, 100, 1200), ("break", 600, "Colour up"), (100, 200, 1200)]


@pytest.fixture
def room(floor, cashier, shift, game12, table12):
    """Table 1 (1/2): seats 1-3 playing, 3 then sitting out, a hand dealt to 1 and 2 with the
    button on 2, a no-show on seat 6; one player called to it, two more waiting; a running
    tournament of 12 on two tables."""
    sessions = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=3)
    session_state_change(actor=floor, session=sessions[2], action="sit_out")
    hand_start(actor=floor, table=table12, seats=[1, 2], button_seat=2)
    session_seat(actor=floor, table=table12, player=PlayerFactory(nickname="Rocky"), seat=6)
    for name in ("Anna", "Boris", "Cyril"):
        waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name=name, last_name="Tóth"))
    waiting_call_next(actor=floor, game=game12, table=table12)
    tournament = TournamentFactory(name="Sunday Deep Stack", min_players=2, table_size=8, levels=LEVELS)
    register_entries(tournament, 12)
    tournament_start(actor=floor, tournament=tournament, rng=random.Random(5))
    return {"sessions": sessions, "tournament": tournament}


def test_room_draws_every_cash_seat_with_its_state(room, table12):
    (drawing,) = room_get()["cash"]
    seats = {seat["number"]: seat for seat in drawing["seats"]}
    assert [seats[n]["state"] for n in range(1, 10)] == [
        "playing",
        "playing",
        "sitting_out",
        "empty",
        "empty",
        "awaiting_buy_in",
        "empty",
        "empty",
        "empty",
    ]
    assert (drawing["hand"].number, drawing["button"], drawing["seated"]) == (1, 2, 4)
    assert [n for n, seat in seats.items() if seat["dealt"]] == [1, 2]
    assert [n for n, seat in seats.items() if seat["button"]] == [2]
    assert (seats[6]["name"], str(seats[6]["short"]), seats[6]["stack_cents"]) == ("Rocky", "Buys in", None)
    assert seats[1]["stack_cents"] == table12.game.min_buy_in_cents
    assert [called["name"] for called in drawing["called"]] == ["Anna T."]


def test_room_counts_the_waiting_per_game_and_shows_the_tournaments(room, game25):
    state = room_get()
    assert [(row["game"].name, row["waiting"], row["called"]) for row in state["waiting"]] == [
        ("NLHE 1/2", 2, 1),
        ("NLHE 2/5", 0, 0),
    ]
    (tournament,) = state["tournaments"]
    assert tournament["players"] == 12
    assert [len([s for s in t["seats"] if s["state"] == "playing"]) for t in tournament["tables"]] == [6, 6]
    assert (tournament["clock"]["status"], tournament["clock"]["level"]["number"]) == ("running", 1)
    assert tournament["clock"]["remaining_ms"] <= 1_200_000


def test_closed_tables_are_listed_not_drawn(floor, game12, table12):
    other = make_table(game12, 4)
    table_close(actor=floor, table=other)
    state = room_get()
    assert ([d["number"] for d in state["cash"]], [t.number for t in state["closed"]]) == ([1], [4])


def test_floor_sees_the_room_and_can_tap_every_cash_seat(client, floor, room, table12):
    client.force_login(floor)
    page = client.get("/floor/")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count(f'hx-get="/cashgame/tables/{table12.pk}/seats/') == 9
    assert html.count('class="seat seat--') == 9 + 16  # the cash table and two tournament tables of 8
    assert 'id="seat-panel"' in html and 'hx-get="/floor/live/?since=' in html
    assert 'hx-trigger="every 1s, room-changed from:body" hx-swap="none"' in html
    assert "Hand 1 in progress" in html and "Called: Anna T." in html
    assert "Sunday Deep Stack" in html and "Level 1" in html and "25 / 50" in html
    assert 'aria-current="page"' in html and ">Floor</a>" in html  # in the menu, highlighted


def test_manager_sees_the_room_too__ROL_1(client, manager, room):
    client.force_login(manager)
    assert client.get("/floor/").status_code == 200
    assert client.get("/floor/live/").status_code == 200


def test_cashier_sees_the_room_but_taps_no_seat__ROL_1(client, cashier, room):
    client.force_login(cashier)
    html = client.get("/floor/").content.decode()
    assert "Sunday Deep Stack" in html
    assert "/seats/" not in html and 'id="seat-panel"' not in html


def test_anonymous_goes_to_log_in_and_others_are_refused__ROL_1(client, administrator):
    response = client.get("/floor/")
    assert (response.status_code, response["Location"]) == (302, "/login/?next=/floor/")
    assert client.get("/floor/live/").status_code == 302
    client.force_login(administrator)
    assert client.get("/floor/").status_code == 403


def test_floor_view_in_slovak(client, floor, room):
    client.force_login(floor)
    with translation.override("sk"):
        client.cookies["django_language"] = "sk"
        html = client.get("/floor/", HTTP_ACCEPT_LANGUAGE="sk").content.decode()
    for slovak in ("Stôl 1", "Prebieha hra 1", "Čaká", "Úroveň 1", "voľné", "Nehrá", "Rezervované", "Herňa"):
        assert slovak in html, slovak
    for english in ("Between hands", "Hand 1 in progress", "Waiting", "Cash tables", "free", "Sitting out"):
        assert f">{english}<" not in html, english


# The log-in session, the user and their roles (3); the cash
# tables (cash_table_drawings: tables with their games and last buttons, hands in progress, open
# sessions with their players, called players: 4); the closed tables (1); the waiting counts (1);
# the running tournaments (1); per running tournament its levels, tables and seated entries (3);
# the dealers at the tables and the pushes planned to them (2).
ROOM_QUERIES = 3 + 4 + 1 + 1 + 1 + 3 + 2
# A poll that finds this half second's drawing of the room: the log-in alone.
DRAWN_QUERIES = 3


def test_live_fragment_queries_do_not_grow_with_tables_and_players(
    client, floor, cashier, shift, room, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    client.force_login(floor)
    assert client.get("/floor/live/").status_code == 200
    cache.clear()  # draw the room anew, as the first poll of a second does
    with django_assert_num_queries(ROOM_QUERIES):
        assert client.get("/floor/live/").status_code == 200
    game = make_game(name="PLO 2/5", small=200, big=500, min_buy_in=20_000, max_buy_in=100_000)
    for number in (7, 8, 9):
        seat_players(cashier=cashier, floor=floor, shift=shift, table=make_table(game, number), count=6)
        waiting_add(actor=floor, game=game, player=PlayerFactory())
    cache.clear()
    with django_assert_num_queries(ROOM_QUERIES):
        page = client.get("/floor/live/")
    assert page.content.decode().count('class="seat seat--') == 4 * 9 + 16


def test_every_screen_polling_in_one_second_shares_one_drawing_until_the_room_changes(
    client, floor, manager, room, game12, monkeypatch, django_assert_num_queries
):
    """Ten floor screens polling each second cost two drawings a second; a change of the room
    (here a player taken off the waiting list) is drawn for the polls of the next half second,
    and a screen holding the drawing before it is sent the waiting counts alone."""
    hold_caches(monkeypatch)
    now = [1_800_000_000.1]
    monkeypatch.setattr("time.time", lambda: now[0])
    cache.clear()
    client.force_login(floor)
    first = client.get("/floor/live/")
    other = Client()
    other.force_login(manager)
    other.get("/floor/live/")
    with django_assert_num_queries(DRAWN_QUERIES):
        again = other.get("/floor/live/")
    assert again["ETag"] == first["ETag"]
    since = first["ETag"].strip('"')
    waiting = re.search(r'<strong class="count">(\d+)</strong>', first.content.decode()).group(1)
    leaving = WaitingEntry.objects.filter(game=game12, status=WaitStatus.WAITING).first()
    waiting_remove(actor=floor, entry=leaving)
    assert other.get(f"/floor/live/?since={since}").content == b""  # the same half second
    now[0] += 0.5
    changed = other.get(f"/floor/live/?since={since}").content.decode()
    assert re.findall(r'<div id="([\w-]+)"', changed) == ["room-poll", "part-waiting"]
    assert re.search(r'<strong class="count">(\d+)</strong>', changed).group(1) == str(int(waiting) - 1)


def test_staff_without_a_role_is_refused__ROL_1(client, room):
    client.force_login(make_staff("nobody"))
    assert client.get("/floor/").status_code == 403
