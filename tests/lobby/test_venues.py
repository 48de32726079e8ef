"""Public pages per venue (VEN-1): each venue's room page, waiting board, TV clocks and
waiting-list join answer at its own address (/v/<slug>/ or its host name) with its own games,
lists and tournaments; the QR codes lead there; a phone's private link is its venue's; and the
screens' shared readings (Django's cache) are one venue's each."""

import re

import pytest
from django.core.cache import cache
from django.core.signing import dumps
from django.urls import set_script_prefix
from django.utils import timezone

from cardroom.models import AuditRecord, Venue
from cardroom.roles import Role
from cardroom.selectors import venue_get
from cardroom.services import staff_role_grant
from cardroom.venues import SESSION_VENUE, venue_activate
from cashgame.models import WaitingEntry, WaitStatus
from cashgame.services.waiting import waiting_add
from cashgame.services.waiting_remote import STATUS_SALT, status_token
from players.models import Player
from screens.readings import Part, shared_drawing, shared_reading
from screens.views import public as public_views
from screens.views.public import qr_svg
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db

TWO_HOST = "two.example.com"


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    """The joins' attempt counter and the shared readings live in the cache."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, TWO_HOST]
    cache.clear()
    qr_svg.cache_clear()
    yield
    cache.clear()


def person(first: str, last: str) -> Player:
    return PlayerFactory(first_name=first, last_name=last, nickname="")


@pytest.fixture
def rooms(db):
    """Venue one (the installation's first, at the bare address and /v/room/) runs NLHE 1/2 at
    table 1 with Anna Kovac waiting, and tonight's One Deepstack; venue two ("Casino Two", at
    /v/two/ and two.example.com) runs PLO 2/5 at table 7 with Boris Novak waiting, and tonight's
    Two Turbo. Each venue has its own floor manager."""
    one = venue_get()
    two = Venue.objects.create(name="Casino Two", slug="two", host_names=TWO_HOST)
    floor_one = make_staff("floor-one", Role.FLOOR)
    floor_two = make_staff("floor-two")
    staff_role_grant(user=floor_two, role=Role.FLOOR.value, venue=two)
    now = timezone.now()
    with venue_activate(one):
        holdem = make_game(name="NLHE 1/2")
        make_table(holdem, 1)
        waiting_add(actor=floor_one, game=holdem, player=person("Anna", "Kovac"))
        one_tournament = TournamentFactory(name="One Deepstack", start_at=now, levels=[(25, 50, 600)])
    with venue_activate(two):
        omaha = make_game(name="PLO 2/5", small=200, big=500, min_buy_in=20_000, max_buy_in=100_000)
        make_table(omaha, 7)
        waiting_add(actor=floor_two, game=omaha, player=person("Boris", "Novak"))
        two_tournament = TournamentFactory(name="Two Turbo", start_at=now, levels=[(100, 200, 900)])
    return {
        "one": one,
        "two": two,
        "holdem": holdem,
        "omaha": omaha,
        "one_tournament": one_tournament,
        "two_tournament": two_tournament,
    }


def page(client, address: str, **headers) -> str:
    response = client.get(address, **headers)
    assert response.status_code == 200, (address, response.status_code)
    return response.content.decode()


def names_on(html: str) -> set[str]:
    """Which of the two venues' games, tournaments and waiting players a page names."""
    known = ("NLHE 1/2", "PLO 2/5", "One Deepstack", "Two Turbo", "Anna K.", "Boris N.")
    return {name for name in known if name in html}


def test_room_page_of_each_venue_shows_only_its_own_games_and_tournaments_VEN_1(client, rooms):
    two_pk = rooms["two_tournament"].pk
    one = page(client, "/room/")
    assert names_on(one) == {"NLHE 1/2", "One Deepstack"}
    assert '<a class="lobby-brand" href="/room/?lang=en">Card Room</a>' in one
    two = page(client, "/v/two/room/")
    assert names_on(two) == {"PLO 2/5", "Two Turbo"}
    # The page names its venue, and every link and poll it draws stays at the venue's address.
    assert "<title>Casino Two · Games and tournaments</title>" in two
    assert '<a class="lobby-brand" href="/v/two/room/?lang=en">Casino Two</a>' in two
    assert '<a class="lobby-join" href="/v/two/wait/?lang=en">' in two
    assert 'hx-get="/v/two/room/live/?lang=en"' in two
    assert f'<a href="/v/two/room/tournaments/{two_pk}/?lang=en">Two Turbo</a>' in two
    assert names_on(page(client, "/v/two/room/live/")) == {"PLO 2/5", "Two Turbo"}
    assert names_on(page(client, "/v/room/room/live/")) == {"NLHE 1/2", "One Deepstack"}
    # Under the venue's host name: its page, with links at that host's root.
    by_host = page(client, "/room/", HTTP_HOST=TWO_HOST)
    assert names_on(by_host) == {"PLO 2/5", "Two Turbo"}
    assert f'<a href="/room/tournaments/{two_pk}/?lang=en">Two Turbo</a>' in by_host


def test_unknown_venue_address_is_not_found_VEN_1(client, rooms):
    assert client.get("/v/three/room/").status_code == 404


def test_board_of_each_venue_shows_only_its_own_lists_VEN_1(client, rooms):
    one = page(client, "/board/")
    assert names_on(one) == {"NLHE 1/2", "Anna K."}
    two = page(client, "/v/two/board/")
    assert names_on(two) == {"PLO 2/5", "Boris N."}
    assert "<title>Casino Two · Waiting lists</title>" in two
    assert 'hx-get="/v/two/board/rows/?lang=en"' in two
    rows = client.get("/v/two/board/rows/")
    assert names_on(rows.content.decode()) == {"PLO 2/5", "Boris N."}
    assert '<span class="board-venue">Casino Two</span>' in rows.content.decode()
    # Venue one's rows, as a board holds them, are not venue two's: no 304 for its ETag.
    held = client.get("/board/rows/")["ETag"]
    assert client.get("/v/two/board/rows/", HTTP_IF_NONE_MATCH=held).status_code == 200
    assert names_on(page(client, "/board/rows/", HTTP_HOST=TWO_HOST)) == {"PLO 2/5", "Boris N."}


def test_tv_of_each_venue_and_another_venues_tournament_is_not_found_VEN_1(client, rooms):
    one_pk, two_pk = rooms["one_tournament"].pk, rooms["two_tournament"].pk
    tv = page(client, f"/v/two/tv/{two_pk}/")
    assert "<h1>Two Turbo</h1>" in tv and f'data-clock-url="/v/two/tv/{two_pk}/state.json"' in tv
    assert "<title>Two Turbo · Clock · Casino Two</title>" in tv
    assert "<h1>One Deepstack</h1>" in page(client, f"/tv/{one_pk}/")
    # Venue one's state is read and shared first: venue two's address still finds no such tournament.
    assert client.get(f"/tv/{one_pk}/state.json").json()["name"] == "One Deepstack"
    for address in (
        f"/v/two/tv/{one_pk}/",
        f"/v/two/tv/{one_pk}/state.json",
        f"/v/two/room/tournaments/{one_pk}/",
        f"/tv/{two_pk}/",
        f"/tv/{two_pk}/state.json",
        f"/room/tournaments/{two_pk}/",
    ):
        assert client.get(address).status_code == 404, address
    assert client.get(f"/tv/{one_pk}/state.json", HTTP_HOST=TWO_HOST).status_code == 404
    state = client.get(f"/v/two/tv/{two_pk}/state.json").json()
    assert (state["name"], state["level"]["small_blind_chips"], state["level"]["big_blind_chips"]) == (
        "Two Turbo",
        100,
        200,
    )


def test_join_form_joins_the_list_of_the_venue_whose_page_it_is_VEN_1(client, rooms):
    form = page(client, "/v/two/wait/")
    assert names_on(form) == {"PLO 2/5"}
    assert '<p class="phone-venue">Casino Two</p>' in form
    assert '<form method="post" action="/v/two/wait/"' in form
    response = client.post(
        "/v/two/wait/", {"game": [rooms["omaha"].pk], "nickname": "Cyril", "phone": "+421 905 000 111"}
    )
    assert response.status_code == 302
    assert re.fullmatch(r"/v/two/wait/s/[^/]+/", response["Location"])
    entry = WaitingEntry.all_venues.get(nickname="Cyril")
    assert (entry.venue_id, entry.game_id, entry.status) == (rooms["two"].pk, rooms["omaha"].pk, "waiting")
    status = page(client, response["Location"])
    assert "<h2>PLO 2/5</h2>" in status and "Number 2 of 2 waiting" in status
    assert f'hx-get="{response["Location"]}rows/"' in status


def test_join_form_refuses_a_game_of_another_venue_and_writes_nothing_VEN_1(client, rooms):
    before = (WaitingEntry.all_venues.count(), AuditRecord.all_venues.count(), Player.objects.count())
    response = client.post(
        "/v/two/wait/", {"game": [rooms["holdem"].pk], "nickname": "Cyril", "phone": "+421 905 000 111"}
    )
    assert response.status_code == 404
    assert "That game is not offered. Choose one from the list." in response.content.decode()
    assert (WaitingEntry.all_venues.count(), AuditRecord.all_venues.count(), Player.objects.count()) == before
    # Nor by its host name, with both venues' games at once.
    games = [rooms["omaha"].pk, rooms["holdem"].pk]
    response = client.post(
        "/wait/", {"game": games, "nickname": "Cyril", "phone": "+421905000111"}, HTTP_HOST=TWO_HOST
    )
    assert response.status_code == 404
    assert (WaitingEntry.all_venues.count(), AuditRecord.all_venues.count(), Player.objects.count()) == before


def test_private_link_of_one_venue_is_not_found_at_another_VEN_1(client, rooms):
    joined = client.post(
        "/v/two/wait/", {"game": [rooms["omaha"].pk], "nickname": "Cyril", "phone": "+421 905 000 111"}
    )
    link = joined["Location"]  # /v/two/wait/s/<token>/
    token = link.split("/")[-2]
    entry = WaitingEntry.all_venues.get(nickname="Cyril")
    assert "<h2>PLO 2/5</h2>" in page(client, link)
    for address in (f"/wait/s/{token}/", f"/wait/s/{token}/rows/", f"/v/room/wait/s/{token}/"):
        response = client.get(address)
        assert response.status_code == 404, address
        html = response.content.decode()
        assert "This link is for another room&#x27;s page. Open it exactly as you were given it." in html
        assert names_on(html) == set() and "Cyril" not in html
    left = client.post(f"/wait/s/{token}/leave/{entry.pk}/")
    assert left.status_code == 404
    entry.refresh_from_db()
    assert (entry.status, entry.closed_at) == (WaitStatus.WAITING, None)
    assert not AuditRecord.all_venues.filter(action="cashgame.waiting_leave").exists()
    # At the venue's host name, the same link works.
    assert "<h2>PLO 2/5</h2>" in page(client, f"/wait/s/{token}/", HTTP_HOST=TWO_HOST)


def test_private_link_made_before_venues_is_the_first_venues_VEN_1(client, rooms):
    with venue_activate(rooms["one"]):
        (entry,) = WaitingEntry.objects.filter(game=rooms["holdem"])
    old = dumps({"e": [entry.pk], "t": int(timezone.now().timestamp())}, salt=STATUS_SALT, compress=True)
    assert "<h2>NLHE 1/2</h2>" in page(client, f"/wait/s/{old}/")
    assert client.get(f"/v/two/wait/s/{old}/").status_code == 404
    # A link of venue two's making names venue two, whatever venue the code runs for.
    made = status_token([entry.pk], now=timezone.now(), venue_id=rooms["two"].pk)
    assert client.get(f"/wait/s/{made}/").status_code == 404


def qr_encoded(client, address: str, monkeypatch, **headers) -> str:
    """The text the QR code at `address` encodes (segno is given it; the SVG is exactly its)."""
    seen = []
    make = public_views.segno.make

    def spy(content, **kwargs):
        seen.append(content)
        return make(content, **kwargs)

    monkeypatch.setattr(public_views.segno, "make", spy)
    qr_svg.cache_clear()
    response = client.get(address, **headers)
    assert response["Content-Type"] == "image/svg+xml"
    (encoded,) = seen
    assert response.content.decode() == qr_svg(encoded)
    return encoded


def test_qr_code_leads_to_the_venue_of_its_screen_VEN_1(client, rooms, settings, monkeypatch):
    two_pk = rooms["two_tournament"].pk
    # The TV and the board of venue two show the QR code of venue two's address ...
    img = '<img src="/v/two/room/qr.svg" alt="QR code of the room page for phones">'
    assert img in page(client, f"/v/two/tv/{two_pk}/")
    assert img in page(client, "/v/two/board/rows/")
    # ... which encodes venue two's room page, prefix kept.
    assert qr_encoded(client, "/v/two/room/qr.svg", monkeypatch) == "http://testserver/v/two/room/"
    assert qr_encoded(client, "/room/qr.svg", monkeypatch) == "http://testserver/room/"
    # Opened by the venue's host name: that host's root.
    assert (
        qr_encoded(client, "/room/qr.svg", monkeypatch, HTTP_HOST=TWO_HOST) == "http://two.example.com/room/"
    )
    settings.PUBLIC_BASE_URL = "https://cards.example.com"
    assert qr_encoded(client, "/v/two/room/qr.svg", monkeypatch) == "https://cards.example.com/v/two/room/"
    assert qr_encoded(client, "/room/qr.svg", monkeypatch) == "https://cards.example.com/room/"
    # A screen of venue two opened by a staff browser's pick, at the bare address, still leads there.
    session = client.session
    session[SESSION_VENUE] = rooms["two"].pk
    session.save()
    assert qr_encoded(client, "/room/qr.svg", monkeypatch) == "https://cards.example.com/v/two/room/"
    # The QR code scanned at venue two's address opens venue two's room page.
    assert names_on(page(client, "/v/two/room/")) == {"PLO 2/5", "Two Turbo"}


def test_shared_readings_are_one_venues_each_VEN_1(rooms):
    drawn = []

    def draw(name):
        def read():
            drawn.append(name)
            return {"strip": []}, [Part("part-venue", name)]

        return read

    with venue_activate(rooms["one"]):
        one = shared_drawing("screen", draw("one"), every=3600)
        assert shared_reading("count", lambda: "one", every=3600) == "one"
    with venue_activate(rooms["two"]):
        two = shared_drawing("screen", draw("two"), every=3600)
        assert shared_reading("count", lambda: "two", every=3600) == "two"
    assert drawn == ["one", "two"]
    assert (one.parts, two.parts) == ({"part-venue": "one"}, {"part-venue": "two"})
    with venue_activate(rooms["one"]):  # within the period: venue one's own reading again
        assert shared_drawing("screen", draw("again"), every=3600).parts == {"part-venue": "one"}
    # The same venue asked by another address prefix draws its own (its links keep that prefix).
    set_script_prefix("/v/two/")
    try:
        with venue_activate(rooms["two"]):
            assert shared_reading("count", lambda: "two at /v/two/", every=3600) == "two at /v/two/"
    finally:
        set_script_prefix("/")


def test_room_live_poll_of_one_venue_is_never_another_venues_VEN_1(client, rooms):
    one = client.get("/room/live/")
    assert client.get("/room/live/", HTTP_IF_NONE_MATCH=one["ETag"]).status_code == 304
    two = client.get("/v/two/room/live/", HTTP_IF_NONE_MATCH=one["ETag"])
    assert two.status_code == 200
    assert names_on(two.content.decode()) == {"PLO 2/5", "Two Turbo"}
    assert client.get("/v/two/room/live/", HTTP_IF_NONE_MATCH=two["ETag"]).status_code == 304


def test_floor_poll_of_one_venue_is_never_another_venues_VEN_1(client, rooms):
    manager = make_staff("floor-both", Role.FLOOR)
    staff_role_grant(user=manager, role=Role.FLOOR.value, venue=rooms["two"])
    client.force_login(manager)
    one = page(client, "/v/room/floor/")
    since = re.search(r"since=([0-9a-f]+\.\d+)", one).group(1)
    assert "Table 1" in one and "Table 7" not in one
    held = client.get(f"/v/room/floor/live/?since={since}")
    assert (held.status_code, held.content) == (200, b"")
    assert (
        client.get(f"/v/room/floor/live/?since={since}", HTTP_IF_NONE_MATCH=held["ETag"]).status_code == 304
    )
    # Venue two's poll with venue one's drawing held: venue two's whole room, never a 304.
    two = client.get(f"/v/two/floor/live/?since={since}", HTTP_IF_NONE_MATCH=held["ETag"])
    assert two.status_code == 200
    html = two.content.decode()
    assert "Table 7" in html and "Table 1" not in html
    assert 'href="/v/two/cashgame/tables/' in html and 'href="/cashgame/tables/' not in html
