"""The floor's view of a cash table (`/cashgame/tables/<id>/`: the table drawn with its seats,
the hand in progress, the last hands) keeps a pinned number of queries, and the same number after the
table has a long history of hands and sessions (see tests/queries.py)."""

import pytest

from cashgame.models import Hand
from tests.cashgame.conftest import seat_players
from tests.queries import cash_history, hand_history, hold_caches

pytestmark = pytest.mark.django_db

# The log-in session, the user and his roles (3), the drawn table (cash_table_drawings: the table
# with its game and last button, the hand in progress, the open sessions with their players, the
# players called to it: 4), the table's chips in play (its account, the rolled-up days and the live
# sum: 3), and the last 20 hands (1). A seat's actions are read when it is tapped, not here.
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
    html = page.content.decode()
    assert html.count('class="seat seat--') == 9  # every seat drawn, taken or free
    assert html.count(f'href="/cashgame/tables/{table12.pk}/seats/') == 9  # and each one tappable
    assert Hand.objects.filter(table=table12).count() == 40
