"""The public room page (/room/, no log-in): the cash games running now with their tables, free
seats and waiting counts, the house's tables flagged, today's tournaments; what a floor action
changes shows within seconds; its queries are pinned and do not grow with the room's history."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from cardroom.models import Venue
from cardroom.selectors import venue_get
from cardroom.venues import venue_cache_clear
from cashgame.models import HousePlayers
from cashgame.services.sessions import session_seat
from cashgame.services.tables import table_house_players_set
from cashgame.services.waiting import waiting_add, waiting_call_next, waiting_remove
from screens.public import room_public_get
from screens.views import public as views
from tests.cashgame.conftest import T0, at, make_game, make_table, seat_players
from tests.factories import PlayerFactory
from tests.queries import cash_history, hold_caches
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.factories import seat_players as register_entries
from tournaments.models import GuaranteeMode, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor, cashier, shift, game12, game25):
    """1/2: table 1 (9 seats, 3 playing) and table 3 (6 seats, proposition players, 1 seated
    waiting for his buy-in); 2/5: table 2 empty, three on the list, one of them called to it;
    PLO 5/10: no table, two waiting. Tournaments on T0's gaming day: one at 20:00 with a
    guarantee, one finished at 12:00; one from yesterday still running; one tomorrow."""
    table1 = make_table(game12, 1)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table1, count=3)
    table3 = make_table(game12, 3, seats=6)
    table_house_players_set(actor=floor, table=table3, house_players=HousePlayers.PROPOSITION, now=at(0))
    session_seat(actor=floor, table=table3, player=PlayerFactory(), seat=2, now=at(2))
    table2 = make_table(game25, 2)
    for _ in range(3):
        waiting_add(actor=floor, game=game25, player=PlayerFactory(), now=at(3))
    waiting_call_next(actor=floor, game=game25, table=table2, now=at(4))
    plo = make_game(name="PLO 5/10", small=500, big=1000, min_buy_in=50_000, max_buy_in=None)
    for _ in range(2):
        waiting_add(actor=floor, game=plo, player=PlayerFactory(), now=at(5))
    evening = TournamentFactory(
        name="Evening Deepstack",
        start_at=T0 + timedelta(hours=2),
        prize_cents=4_500,
        fee_cents=500,
        guarantee_mode=GuaranteeMode.UNCONDITIONAL,
        guarantee_cents=500_000,
        late_registration_level=6,
    )
    register_entries(evening, 3)
    noon = TournamentFactory(
        name="Noon Turbo", start_at=T0 - timedelta(hours=6), status=TournamentStatus.FINISHED
    )
    register_entries(noon, 2)
    overnight = TournamentFactory(
        name="Overnight Marathon",
        start_at=T0 - timedelta(days=1),
        status=TournamentStatus.RUNNING,
        late_registration_level=8,
    )
    register_entries(overnight, 4)
    TournamentFactory(name="Tomorrow Main", start_at=T0 + timedelta(days=1))
    return {"tables": (table1, table2, table3), "evening": evening}


def games_summary(state) -> list:
    return [
        (
            row["game"].name,
            [(t["number"], t["seats"], t["seated"], t["free"], t["house_players"]) for t in row["tables"]],
            row["free"],
            row["waiting"],
        )
        for row in state["games"]
    ]


def test_room_lists_the_games_running_with_tables_free_seats_and_waiting(room):
    assert games_summary(room_public_get(now=at(10))) == [
        ("NLHE 1/2", [(1, 9, 3, 6, ""), (3, 6, 1, 5, "proposition")], 11, 0),
        # Table 2's seat is held for the called player: not free.
        ("NLHE 2/5", [(2, 9, 0, 8, "")], 8, 3),
        ("PLO 5/10", [], 0, 2),
    ]


def test_room_lists_todays_tournaments_in_venue_time(room):
    rows = room_public_get(now=at(10))["tournaments"]
    assert [
        (
            row["tournament"].name,
            timezone.localtime(row["start_at"]).strftime("%d %H:%M"),
            row["buy_in_cents"],
            row["guarantee_cents"],
            row["registered"],
            row["registration"],
            row["registration_text"],
        )
        for row in rows
    ] == [
        (
            "Overnight Marathon",
            "09 18:00",
            10_000,
            None,
            4,
            "late",
            "Late registration open until the end of level 8",
        ),
        ("Noon Turbo", "10 12:00", 10_000, None, 2, "over", ""),
        (
            "Evening Deepstack",
            "10 20:00",
            5_000,
            500_000,
            3,
            "open",
            "Registration open; late registration until the end of level 6",
        ),
    ]


def test_room_page_shows_stakes_counts_flags_and_the_privacy_line(client, room):
    html = client.get("/room/").content.decode()
    assert "NLHE 1/2" in html and "1.00 EUR / 2.00 EUR" in html
    counts = re.findall(r'data-count="(\w[\w-]*)">([^<]+)<', html)
    # Per game: tables, free seats, waiting; then today's tournaments (none today: T0 is past).
    assert counts[:9] == [
        ("tables", "2"),
        ("free", "11"),
        ("waiting", "0"),
        ("tables", "1"),
        ("free", "8"),
        ("waiting", "3"),
        ("tables", "0"),
        ("free", "0"),
        ("waiting", "2"),
    ]
    flags = re.findall(r'data-house="(\w+)">([^<]+)<', html)
    assert flags == [("proposition", "Proposition players play here")]
    assert (
        "We show nicknames only; a phone number given to join a list is deleted 24 hours after you leave it."
        in html
    )
    assert 'hx-get="/room/live/?lang=en" hx-trigger="every 5s"' in html


def test_room_page_leads_to_the_remote_join_only_while_the_venue_allows_it__WTL_1(client, db):
    venue_get()  # the venue row exists, as in a room
    html = client.get("/room/?lang=sk").content.decode()
    assert '<a class="lobby-join" href="/wait/?lang=sk">Zapísať sa na čakaciu listinu</a>' in html
    Venue.objects.update(remote_join_enabled=False)
    venue_cache_clear()
    assert "lobby-join" not in client.get("/room/").content.decode()


def test_room_page_tournament_buy_in_and_guarantee_in_eur_and_slovak(client, floor):
    TournamentFactory(
        name="Today Bounty",
        start_at=timezone.now(),
        prize_cents=123_450,
        fee_cents=0,
        guarantee_mode=GuaranteeMode.UNCONDITIONAL,
        guarantee_cents=1_000_000,
    )
    html = client.get("/room/?lang=sk").content.decode()
    assert 'data-count="buy-in">1\xa0234,50 EUR<' in html
    assert 'data-count="guarantee">10\xa0000,00 EUR<' in html
    assert "Dnešné turnaje" in html


def test_a_floor_action_shows_on_the_room_page_within_ten_seconds(client, floor, room, monkeypatch):
    """The page polls every 5 s and one drawing serves every phone for 2 s: a change made just
    after a drawing shows at the poll after it expires, 7 s at most (the issue asks for 10)."""
    assert views.LIVE_POLL_SECONDS + views.DRAWING_SECONDS <= 10
    cache.clear()
    clock = {"now": 1_000_000.0}
    monkeypatch.setattr("time.time", lambda: clock["now"])
    first = client.get("/room/live/")
    before = first.content.decode()
    assert 'data-table="1"><span class="lobby-table-no">Table 1</span>' in before
    assert re.search(r'data-count="free">11<', before)
    session_seat(actor=floor, table=room["tables"][0], player=PlayerFactory(), seat=9)
    # The same drawing: a phone that holds it is answered 304 Not Modified, with no body.
    assert client.get("/room/live/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    clock["now"] += views.DRAWING_SECONDS
    after = client.get("/room/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert (after.status_code, after["Cache-Control"]) == (200, "no-cache")  # kept, asked again each time
    assert re.search(r'data-count="free">10<', after.content.decode())


def test_room_queries_are_pinned_and_constant_in_history__WTL_1(
    room,
    floor,
    cashier,
    shift,
    game12,
    monkeypatch,
    client,
    django_assert_num_queries,
    django_assert_max_num_queries,
):
    hold_caches(monkeypatch)
    room_public_get(now=at(10))  # the venue row, read once per process
    with django_assert_num_queries(4):
        first = room_public_get(now=at(10))
    # History: sessions played and ended, waiting lists done, tournaments of past days.
    history_table = make_table(game12, 7)
    cash_history(cashier=cashier, floor=floor, shift=shift, table=history_table, seats=[1, 2, 3], rounds=3)
    for _ in range(5):
        entry = waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(20))
        waiting_remove(actor=floor, entry=entry, now=at(21))
    for days in range(1, 6):
        old = TournamentFactory(start_at=T0 - timedelta(days=days), status=TournamentStatus.FINISHED)
        register_entries(old, 5)
    with django_assert_num_queries(4):
        second = room_public_get(now=at(10))
    assert [row["tournament"].pk for row in second["tournaments"]] == [
        row["tournament"].pk for row in first["tournaments"]
    ]
    cache.clear()
    with django_assert_max_num_queries(4):
        assert client.get("/room/").status_code == 200
    with django_assert_max_num_queries(4):
        assert client.get("/room/live/").status_code == 200
