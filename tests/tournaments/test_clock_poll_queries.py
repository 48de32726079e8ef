"""The clock the room's TV screens poll every few seconds (`/tv/<id>/state.json`, TRN-8: the
clock and the field), and the same clock in the API, keep a pinned number of queries, and the
same number once the tournament has many more entries and bust-outs behind it."""

import pytest
from django.core.cache import cache

from tests.queries import hold_caches
from tests.tournaments.conftest import grow_history

pytestmark = pytest.mark.django_db

# The tournament and its levels (2), its rules (1), the entries counted (1), the chips in play
# (1), the prize pool's account, the rolled-up days and the live sum (3), the chip set for the
# next colour-up (1, CHP-1), the latest chip count of each player still in with his player (1:
# the TV's chip leaders and the average from real counts, issue 27; one statement however many
# counts the history holds). No log-in: public.
TV_POLL_QUERIES = 10
# The tournament and its levels; the user's roles are cached on the authenticated user.
API_CLOCK_QUERIES = 2


def test_tv_clock_poll_queries_are_pinned_and_do_not_grow__TRN_8(
    client, floor, running_tournament, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, entries = running_tournament
    url = f"/tv/{tournament.pk}/state.json"
    assert client.get(url).status_code == 200  # the venue is read once
    cache.clear()  # a new reading, as the first poll of each half second makes
    with django_assert_num_queries(TV_POLL_QUERIES):
        assert client.get(url).json()["field"]["entries"] == 10
    grow_history(floor, tournament, entries)
    cache.clear()
    with django_assert_num_queries(TV_POLL_QUERIES):
        state = client.get(url).json()
    assert (state["status"], state["field"]["entries"], state["field"]["players_left"]) == ("running", 70, 66)


def test_the_screens_polling_in_one_half_second_share_one_reading__TRN_8(
    client, running_tournament, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, _entries = running_tournament
    url = f"/tv/{tournament.pk}/state.json"
    monkeypatch.setattr("time.time", lambda: 1_800_000_000.2)  # inside one half second
    first = client.get(url).json()
    with django_assert_num_queries(0):
        again = client.get(url).json()
    assert again["field"] == first["field"] and again["level_ends_at"] == first["level_ends_at"]
    assert again["server_now"] >= first["server_now"]  # the time is every answer's own


def test_api_clock_queries_are_pinned_and_do_not_grow__TRN_8(
    api, floor, running_tournament, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, entries = running_tournament
    client = api(floor)
    url = f"/api/tournaments/{tournament.pk}/clock/"
    assert client.get(url).status_code == 200  # the user's roles are read once
    with django_assert_num_queries(API_CLOCK_QUERIES):
        assert client.get(url).json()["status"] == "running"
    grow_history(floor, tournament, entries)
    with django_assert_num_queries(API_CLOCK_QUERIES):
        assert client.get(url).json()["status"] == "running"


def wire_bytes(response) -> int:
    """What the answer costs on the wire: its status line, its headers and its body."""
    status_line = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    return len(status_line.encode()) + len(response.serialize())


def test_a_tv_poll_holding_the_state_gets_a_304_with_the_time_alone__TRN_8(
    client, floor, running_tournament, monkeypatch, django_assert_num_queries
):
    """The clock counts: the time left moves each second, but the screen works it out from the
    level's end, so the state's tag holds and the poll is a 304 under 1 KB. One answered from
    the half second's shared reading reads nothing; one that makes the reading reads what a
    full answer does."""
    hold_caches(monkeypatch)
    tournament, entries = running_tournament
    url = f"/tv/{tournament.pk}/state.json"
    moment = [1_800_000_000.1]
    monkeypatch.setattr("time.time", lambda: moment[0])
    first = client.get(url)
    assert first.status_code == 200 and wire_bytes(first) > 2 * 1024
    tag = first["ETag"]
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert (again.status_code, again.content) == (304, b"")
    assert again["Server-Now"] >= first.json()["server_now"]  # the screen's clock is set by it
    assert wire_bytes(again) < 1024
    moment[0] += 0.5  # the next half second: read again, and the same tag
    with django_assert_num_queries(TV_POLL_QUERIES):
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # A bust-out changes the field: the next reading's answer is the whole state, newly tagged.
    grow_history(floor, tournament, entries[:1])
    moment[0] += 0.5
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["field"]["players_left"] == 69
