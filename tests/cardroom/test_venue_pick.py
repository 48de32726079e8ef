"""VEN-1: staff work in their venues. One who holds roles in one venue works there without
picking; one who holds roles in several picks a venue once per session, is sent back where he
was going (only to an address of this site) and cannot pick a venue where he holds no role. API
clients name the venue in X-Venue, else work in the default venue."""

import pytest
from rest_framework.test import APIClient

from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.venues import SESSION_VENUE, venue_activate
from cashgame.models import Game
from tests.cashgame.conftest import make_game
from tests.two_venues import staff, venue_two

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db):
    return venue_two()


def test_staff_of_one_venue_never_see_the_picker__VEN_1(client, venue, two):
    client.force_login(staff("eva", {venue: [Role.FLOOR]}))
    assert client.get("/cashgame/").status_code == 200
    assert SESSION_VENUE not in client.session or client.session[SESSION_VENUE] == venue.pk
    # Floor of B only: his pages work for B at once (his session remembers it).
    client.force_login(staff("jan", {two: [Role.FLOOR]}))
    answer = client.get("/cashgame/", follow=True)
    assert answer.status_code == 200
    assert all("/venue/pick/" not in url for url, _status in answer.redirect_chain)
    assert client.session[SESSION_VENUE] == two.pk
    assert answer.wsgi_request.venue == two


def test_staff_of_two_venues_pick_once_per_session_and_go_where_they_were_going__VEN_1(client, venue, two):
    eva = staff("eva", {venue: [Role.CASHIER], two: [Role.FLOOR]})
    client.force_login(eva)
    answer = client.get("/cashgame/?view=plan")
    assert (answer.status_code, answer["Location"]) == (302, "/venue/pick/?next=%2Fcashgame%2F%3Fview%3Dplan")
    page = client.get(answer["Location"]).content.decode()
    assert "Card Room" in page and "Casino Two" in page
    answer = client.post("/venue/pick/", {"venue": two.pk, "next": "/cashgame/?view=plan"})
    assert (answer.status_code, answer["Location"]) == (302, "/cashgame/?view=plan")
    assert client.session[SESSION_VENUE] == two.pk
    # Picked: B's floor pages open, A's cashier pages are not hers in B.
    with venue_activate(two):
        make_game(name="Casino Two NLHE")
    page = client.get("/cashgame/games/")
    assert page.status_code == 403  # games are the manager's
    assert client.get("/cashgame/").status_code == 200
    assert client.get("/cashier/shifts/").status_code == 403
    # Picking A again in the same session.
    answer = client.post("/venue/pick/", {"venue": venue.pk, "next": "/cashier/shifts/"})
    assert answer["Location"] == "/cashier/shifts/"
    assert client.get("/cashier/shifts/").status_code == 200
    assert client.get("/cashgame/").status_code == 403
    # A new session asks again.
    client.logout()
    client.force_login(eva)
    assert client.get("/cashier/shifts/")["Location"].startswith("/venue/pick/")


@pytest.mark.parametrize(
    "wanted",
    ["https://evil.example/steal", "//evil.example/steal", "http://testserver.evil/x", "javascript:alert(1)"],
)
def test_the_picker_follows_only_addresses_of_this_site__VEN_1(client, venue, two, wanted):
    client.force_login(staff("eva", {venue: [Role.CASHIER], two: [Role.FLOOR]}))
    answer = client.post("/venue/pick/", {"venue": two.pk, "next": wanted})
    assert (answer.status_code, answer["Location"]) == (302, "/")
    assert client.session[SESSION_VENUE] == two.pk
    page = client.get("/venue/pick/", {"next": wanted}).content.decode()
    assert 'name="next" value="/"' in page


def test_picking_a_venue_without_a_role_there_is_refused__VEN_1(client, venue, two):
    third = venue_two(name="Casino Three", slug="three")
    client.force_login(staff("eva", {venue: [Role.CASHIER], two: [Role.FLOOR]}))
    before = AuditRecord.all_venues.count()
    answer = client.post("/venue/pick/", {"venue": third.pk, "next": "/cashier/"}, follow=True)
    assert answer.redirect_chain[0][0].startswith("/venue/pick/")
    assert "Pick one of the venues where you hold a role." in answer.content.decode()
    assert SESSION_VENUE not in client.session
    assert "Casino Three" not in answer.content.decode()
    assert AuditRecord.all_venues.count() == before


def test_the_api_works_in_the_venue_named_in_x_venue__VEN_1(venue, two):
    eva = staff("eva", {venue: [Role.CASHIER], two: [Role.MANAGER]})
    with venue_activate(venue):
        make_game(name="Card Room NLHE")
    with venue_activate(two):
        make_game(name="Casino Two NLHE")
    api = APIClient()
    api.force_authenticate(eva)
    # In B (named), as B's manager: B's games only.
    answer = api.get("/api/cashgame/games/", HTTP_X_VENUE="two")
    assert answer.status_code == 200
    assert [row["name"] for row in answer.json()["results"]] == ["Casino Two NLHE"]
    # A manager's write in B lands in B.
    answer = api.post(
        "/api/cashgame/games/",
        {
            "name": "Casino Two PLO",
            "game_type": "plo",
            "small_blind_cents": 100,
            "big_blind_cents": 200,
            "min_buy_in_cents": 10_000,
            "max_buy_in_cents": 30_000,
        },
        format="json",
        HTTP_X_VENUE="two",
    )
    assert answer.status_code == 201, answer.json()
    assert Game.all_venues.get(name="Casino Two PLO").venue_id == two.pk
    # Without the header: the default venue, where she is a cashier (who may read games, not add).
    answer = api.get("/api/cashgame/games/")
    assert [row["name"] for row in answer.json()["results"]] == ["Card Room NLHE"]
    answer = api.post("/api/cashgame/games/", {"name": "Nope"}, format="json")
    assert (answer.status_code, answer.json()["rule"]) == (403, "ROL-1")
    assert not Game.all_venues.filter(name="Nope").exists()
    # An unknown address name.
    answer = api.get("/api/cashgame/games/", HTTP_X_VENUE="nowhere")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_a_token_client_names_its_venue_in_x_venue__VEN_1(venue, two):
    from rest_framework.authtoken.models import Token

    eva = staff("eva", {venue: [Role.FLOOR], two: [Role.CASHIER]})
    token = Token.objects.create(user=eva)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/cashier/shifts/", HTTP_X_VENUE="two").status_code == 200
    assert api.get("/api/cashier/shifts/").status_code == 403
    assert api.get("/api/cashgame/waiting/").status_code == 200
    assert api.get("/api/cashgame/waiting/", HTTP_X_VENUE="two").status_code == 403
    assert api.get("/api/cashgame/waiting/", HTTP_X_VENUE="nowhere").status_code == 404
