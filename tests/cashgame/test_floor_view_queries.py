"""The floor's view of a cash table (`/cashgame/tables/<id>/`: seats, sessions, the hand in
progress, the last hands) keeps a pinned number of queries, and the same number after the
table has a long history of hands and sessions (see tests/queries.py)."""

import pytest

from cashgame.models import Hand
from tests.cashgame.conftest import seat_players
from tests.queries import cash_history, hand_history, hold_caches

pytestmark = pytest.mark.django_db

# The log-in session, the user and his roles (3), the table with its game (1), the open sessions
# with their players (1), the hand in progress (1), the table's chips in play (its account, the
# rolled-up days and the live sum: 3), the open tables of the move form (1, not one per seat),
# and the last 20 hands (1).
FLOOR_VIEW_QUERIES = 11


def test_floor_table_view_queries_are_pinned_and_do_not_grow(
    client, cashier, floor, shift, table12, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=3)
    client.force_login(floor)
    url = f"/cashgame/tables/{table12.pk}/"
    assert client.get(url).status_code == 200  # the venue and the accounts are read once
    with django_assert_num_queries(FLOOR_VIEW_QUERIES):
        assert client.get(url).status_code == 200
    hand_history(floor=floor, cashier=cashier, shift=shift, table=table12, seats=[4, 5], hands=40)
    cash_history(cashier=cashier, floor=floor, shift=shift, table=table12, seats=[6, 7, 8, 9], rounds=5)
    with django_assert_num_queries(FLOOR_VIEW_QUERIES):
        page = client.get(url)
    assert page.status_code == 200 and len(page.context["hands"]) == 20
    assert page.content.decode().count(f'<option value="{table12.pk}">') == 5  # a move form per seat
    assert Hand.objects.filter(table=table12).count() == 40
