"""The floor's tournament dashboard (`/tournaments/<id>/`: settings, the live clock with its
controls, the levels, the field) keeps a pinned number of queries, and the same number once the
tournament has many more entries and bust-outs behind it."""

import pytest

from tests.queries import hold_caches
from tests.tournaments.conftest import grow_history

pytestmark = pytest.mark.django_db

# The log-in session, the user and his roles (3), the tournament (1), its levels (2: the page's
# table and the clock's), its rules, the entries counted and the chips in play (3), the prize
# pool's account, the rolled-up days and the live sum (3); hand for hand's panel (2: the rules
# row and whether tables are drawn, SER-3).
DASHBOARD_QUERIES = 14


def test_floor_dashboard_queries_are_pinned_and_do_not_grow(
    client, floor, running_tournament, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, entries = running_tournament
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/"
    assert client.get(url).status_code == 200  # the venue is read once
    with django_assert_num_queries(DASHBOARD_QUERIES):
        assert client.get(url).status_code == 200
    grow_history(floor, tournament, entries)
    with django_assert_num_queries(DASHBOARD_QUERIES):
        page = client.get(url)
    assert page.status_code == 200
    assert (page.context["field"]["entries"], page.context["field"]["players_left"]) == (70, 66)
