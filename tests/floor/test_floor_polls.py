"""The floor view's polls cost little on the room's Wi-Fi: a poll that finds the room as the page
holds it is answered 304 Not Modified in under 1 KB, one that finds one table changed is sent
that table alone in under 20 KB, and only a change of the room's frame (a table opened) sends
the whole room again. Bytes are counted as they go on the wire: status line, headers and body."""

import random
import re

import pytest
from django.core.cache import cache
from django.utils import timezone

from cashgame.services.sessions import session_seat
from cashgame.services.waiting import waiting_add
from dealers.models import Dealer, Push, PushKind, PushStatus
from dealers.services.rotation import rotation_settle
from dealers.services.shifts import shift_clock_in
from screens.readings import Drawing, Part
from tests.cashgame.conftest import make_table
from tests.factories import PlayerFactory
from tests.queries import hold_caches
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.factories import seat_players as register_entries
from tournaments.selectors import tournament_clock_get
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db

KB = 1024
CASH_TABLES = 8
LEVELS = [(25, 50, 1200), (50, 100, 1200), ("break", 600, "Colour up"), (100, 200, 1200)]


def wire_bytes(response) -> int:
    """What the answer costs on the wire: its status line, its headers and its body."""
    return len(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n".encode()) + len(
        response.serialize()
    )


def parts_of(html: str) -> list[str]:
    return re.findall(r'<div id="([\w-]+)"', html)


def build_room(floor, game, *, cash_tables: int) -> dict:
    """Cash tables of nine seats, full but for the last table's seat 9 (seated by the floor,
    buying in), a waiting list, and a running tournament of 24 on three tables."""
    tables = [make_table(game, number) for number in range(1, cash_tables + 1)]
    for table in tables:
        for seat in range(1, 9 if table == tables[-1] else 10):
            player = PlayerFactory(nickname=f"T{table.number}S{seat}")
            session_seat(actor=floor, table=table, player=player, seat=seat)
    for name in ("Anna", "Boris"):
        waiting_add(actor=floor, game=game, player=PlayerFactory(first_name=name))
    tournament = TournamentFactory(name="Sunday Deep Stack", min_players=2, table_size=8, levels=LEVELS)
    register_entries(tournament, 24)
    tournament_start(actor=floor, tournament=tournament, rng=random.Random(5))
    return {"tables": tables, "tournament": tournament}


@pytest.fixture
def busy_room(floor, game12):
    """Eight cash tables: the room the byte counts are measured on."""
    return build_room(floor, game12, cash_tables=CASH_TABLES)


@pytest.fixture
def small_room(floor, game12):
    """Two cash tables, for what does not depend on the room's size."""
    return build_room(floor, game12, cash_tables=2)


@pytest.fixture
def period(monkeypatch):
    """The shared drawing's clock (time.time), moved on by hand: `period.next()` is the next
    half second, when the room is drawn again."""
    hold_caches(monkeypatch)

    class Period:
        now = 1_800_000_000.1

        def next(self):
            self.now += 0.5

    clock = Period()
    monkeypatch.setattr("time.time", lambda: clock.now)
    cache.clear()
    return clock


def page_version(client) -> str:
    page = client.get("/floor/").content.decode()
    return re.search(r'hx-get="/floor/live/\?since=([\w.]+)"', page).group(1)


def test_a_poll_that_finds_the_room_unchanged_is_answered_304_in_under_1_kb(client, floor, busy_room, period):
    client.force_login(floor)
    since = page_version(client)
    whole = client.get("/floor/live/")
    assert wire_bytes(whole) > 30 * KB  # the busy room drawn whole, as every poll sent it before
    period.next()
    first = client.get(f"/floor/live/?since={since}")
    assert (first.status_code, first.content, first["ETag"]) == (200, b"", f'"{since}"')
    assert first["Cache-Control"] == "private, no-cache"  # kept, and asked again with If-None-Match
    assert wire_bytes(first) < 1 * KB
    period.next()
    again = client.get(f"/floor/live/?since={since}", HTTP_IF_NONE_MATCH=first["ETag"])
    assert (again.status_code, again.content) == (304, b"")
    assert wire_bytes(again) < 1 * KB


def test_a_running_clock_changes_nothing_the_poll_sends(client, floor, small_room, period):
    """The clocks count down in the browser, to the instant their level ends: the drawn card
    stays the same from one second to the next."""
    client.force_login(floor)
    since = page_version(client)
    for _second in range(4):
        period.next()
        response = client.get(f"/floor/live/?since={since}", HTTP_IF_NONE_MATCH=f'"{since}"')
        assert response.status_code == 304
    html = client.get("/floor/live/").content.decode()
    tournament = small_room["tournament"]
    tournament.refresh_from_db()
    ends_at = tournament_clock_get(tournament=tournament)["level_ends_at"]
    assert f'data-field="time_left" data-ends-at="{ends_at}"' in html
    assert 'data-ends-at="' in html.split("break in", 1)[1]  # the next break counts down too


def test_a_poll_after_one_table_changed_gets_that_table_alone_in_under_20_kb(
    client, floor, busy_room, period
):
    client.force_login(floor)
    since = page_version(client)
    table = busy_room["tables"][-1]
    session_seat(actor=floor, table=table, player=PlayerFactory(nickname="Latecomer"), seat=9)
    period.next()
    response = client.get(f"/floor/live/?since={since}", HTTP_IF_NONE_MATCH=f'"{since}"')
    html = response.content.decode()
    assert response.status_code == 200
    assert parts_of(html) == ["room-poll", f"part-cash-table-{table.number}"]
    assert 'hx-swap-oob="innerHTML"' in html and "Latecomer" in html
    assert html.count('class="seat seat--') == 9
    assert wire_bytes(response) < 20 * KB
    now = response["ETag"].strip('"')
    assert f'hx-get="/floor/live/?since={now}"' in html and now != since
    # The screen now holds the new drawing: nothing more to send.
    period.next()
    assert client.get(f"/floor/live/?since={now}", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_a_poll_after_a_table_opened_gets_the_whole_room(client, floor, small_room, period, game12):
    client.force_login(floor)
    since = page_version(client)
    make_table(game12, 20)
    period.next()
    html = client.get(f"/floor/live/?since={since}").content.decode()
    assert html.startswith('<div id="room" class="room"') and 'hx-swap-oob="true"' in html.split(">", 1)[0]
    assert 'id="part-cash-table-20"' in html
    assert html.count('class="seat seat--') == 3 * 9 + 3 * 8


def test_a_poll_of_another_series_gets_the_whole_room(client, floor, small_room, period):
    """The cache was emptied (a restart of Redis): the version the page holds is of no series
    the server knows, so it is sent everything, and polls on from the new series."""
    client.force_login(floor)
    since = page_version(client)
    cache.clear()
    period.next()
    response = client.get(f"/floor/live/?since={since}", HTTP_IF_NONE_MATCH=f'"{since}"')
    assert response.status_code == 200 and response["ETag"] != f'"{since}"'
    assert response.content.decode().startswith('<div id="room" class="room"')


def test_a_cashiers_screen_has_its_own_drawing__ROL_1(client, floor, cashier, small_room, period):
    """A cashier's seats open no panel: his drawing is another series, so a version of the
    floor's never gets him the floor's parts."""
    client.force_login(floor)
    since = page_version(client)
    client.force_login(cashier)
    response = client.get(f"/floor/live/?since={since}", HTTP_IF_NONE_MATCH=f'"{since}"')
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="room"')
    assert "/seats/" not in html


def test_a_drawing_moves_its_version_only_when_a_part_or_its_frame_changes():
    first = Drawing.first(frame={"cash": ["a", "b"]}, parts=[Part("a", "A"), Part("b", "B")])
    same = first.following(frame={"cash": ["a", "b"]}, parts=[Part("a", "A"), Part("b", "B")])
    assert same is first
    second = first.following(frame={"cash": ["a", "b"]}, parts=[Part("a", "A"), Part("b", "B2")])
    assert (second.version, second.epoch, second.frame_version) == (2, first.epoch, 1)
    assert second.changed_since(first.tag) == [Part("b", "B2")]
    assert second.changed_since(second.tag) == []
    third = second.following(frame={"cash": ["a", "b", "c"]}, parts=[Part(i, i.upper()) for i in "abc"])
    assert third.changed_since(second.tag) is None  # the frame changed: everything
    assert third.changed_since(None) is None and third.changed_since("other.3") is None
    assert third.changed_since(f"{first.epoch}.9") is None and third.changed_since(f"{first.epoch}.x") is None


def test_the_next_dealer_push_is_drawn_by_its_time_so_the_table_holds_from_minute_to_minute__DLR_2(
    client, floor, small_room, period
):
    """The floor view shows the next push by its time ("push at 20:45: Jana"): by its minutes
    left, every table with a dealer would change once a minute and be sent again."""
    client.force_login(floor)
    now = timezone.now()
    for name in ("Eva", "Jana", "Marek", "Peter", "Zuzana", "Ivan", "Lucia"):  # 5 tables, 2 to relieve
        shift_clock_in(actor=floor, dealer=Dealer.objects.create(name=name), now=now)
    rotation_settle(now=now)
    push = Push.objects.filter(status=PushStatus.PENDING, kind=PushKind.DEAL).order_by("due_at").first()
    assert push is not None
    html = client.get("/floor/live/").content.decode()
    due = timezone.localtime(push.due_at).strftime("%H:%M")
    assert f"push at {due}: {push.dealer.name}" in html and "push in " not in html
