"""The seat panel of an empty seat (with the check-in of a phone joiner and the persons found) and
the waiting-list page keep a pinned number of queries, the same with a longer list, more tables
and more players seated: what they check before offering a button is read per page, not per row."""

import pytest
from django.core.cache import cache

from cashgame.services.waiting import waiting_add, waiting_call_next
from cashgame.services.waiting_remote import waiting_join_remote
from tests.cashgame.conftest import at, make_table, seat_players
from tests.factories import PlayerFactory
from tests.queries import hold_caches

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The log-in session, the user and their roles (3); the table with its game (1), the open session
# at the seat (1); the must-move player (1), the list for this seat (1), the open sessions of its
# players (1); the persons found by name (1) and, for them, their open sessions and this list's
# entries (2).
PANEL_QUERIES = 11
# The log-in session, the user and their roles (3); the board (games, entries with players and
# tables: 2) and the tables running (1); the free seats (open tables, taken, held: 3) and the open
# sessions of the players listed (1); the interest lists (the games running, the games: 2); the
# add form's games (1).
WAITING_PAGE_QUERIES = 13


@pytest.fixture(autouse=True)
def _no_attempts_counted():
    cache.clear()
    yield
    cache.clear()


def grow(floor, cashier, shift, game12, game25, table12, start: int) -> None:
    """More players on the lists and in the register, one more called, more tables and players
    seated."""
    for n in range(start, start + 4):
        PlayerFactory(last_name=f"Nováčková{n}")
        waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name=f"Nováček{n}"), now=at(n))
        waiting_add(actor=floor, game=game25, player=PlayerFactory(), now=at(n))
    table = make_table(game25, 10 + start)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table, count=2, minute=start)
    waiting_call_next(actor=floor, game=game25, table=table, now=at(start + 5))


def test_the_seat_panel_and_the_waiting_list_take_pinned_queries__WTL_1_CSH_7(
    client, floor, cashier, shift, game12, game25, table12, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=3)
    (entry,), _token = waiting_join_remote(
        game_ids=[game12.pk], nickname="Lucky", phone="905123000", address="203.0.113.8", now=at(1)
    )
    grow(floor, cashier, shift, game12, game25, table12, start=2)
    client.force_login(floor)
    panel = f"/cashgame/tables/{table12.pk}/seats/5/"
    find = {"entry": entry.pk, "q": "nováčková"}
    assert client.get(panel, find, **HTMX).status_code == 200  # the venue is read once
    assert client.get("/cashgame/waiting/").status_code == 200
    for round_number in range(2):
        with django_assert_num_queries(PANEL_QUERIES):
            html = client.get(panel, find, **HTMX).content.decode()
        assert "Check in Lucky" in html and html.count('data-action="check-in-found"') >= 4
        with django_assert_num_queries(WAITING_PAGE_QUERIES):
            assert client.get("/cashgame/waiting/").status_code == 200
        grow(floor, cashier, shift, game12, game25, table12, start=20 + 20 * round_number)
