"""Every API list goes out a page at a time through cardroom.api's one paginator, in DRF's
envelope {"count", "next", "previous", "results"}, and the schema says so. A limit or offset
that is not a whole number in its range is a 400 naming it, never a default used in silence."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.exceptions import ImproperlyConfigured
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from cardroom.api import Pagination, paginated_response
from cardroom.roles import Role
from players.models import Player
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import api_client_for, make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def list_operations(schema: dict) -> list[str]:
    """The paths whose GET answers the paginated envelope."""
    paths = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None or "200" not in get["responses"]:
            continue
        body = get["responses"]["200"].get("content", {}).get("application/json", {}).get("schema")
        if body is not None and "results" in resolve(schema, body).get("properties", {}):
            paths.append(path)
    return sorted(paths)


def test_no_api_get_answers_a_bare_array(schema):
    """A list that is not paginated shows up in the schema as a top-level array: none may."""
    bare = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                for content in response.get("content", {}).values():
                    if method == "get" and resolve(schema, content.get("schema", {})).get("type") == "array":
                        bare.append(f"{method.upper()} {path} {status}")
    assert bare == []


def test_every_list_is_documented_as_the_envelope_with_limit_and_offset(schema):
    paths = list_operations(schema)
    assert paths == [
        "/api/cashgame/board/",
        "/api/cashgame/drop-counts/",
        "/api/cashgame/games/",
        "/api/cashgame/jackpot/claims/",
        "/api/cashgame/rulebook/",
        "/api/cashgame/rulings/",
        "/api/cashgame/sessions/",
        "/api/cashgame/tables/",
        "/api/cashgame/tables/{id}/hands/",
        "/api/cashgame/waiting/",
        "/api/cashier/reversals/",
        "/api/cashier/shifts/",
        "/api/cashier/transactions/",
        "/api/loyalty/players/{id}/history/",
        "/api/players/",
        "/api/structures/",
        "/api/tournaments/",
        "/api/tournaments/{id}/counts/",
        "/api/tournaments/{id}/entries/",
    ]
    for path in paths:
        get = schema["paths"][path]["get"]
        envelope = resolve(schema, get["responses"]["200"]["content"]["application/json"]["schema"])
        assert envelope["required"] == ["count", "next", "previous", "results"], path
        assert envelope["properties"]["results"]["type"] == "array", path
        parameters = {p["name"]: p["schema"] for p in get["parameters"] if p["in"] == "query"}
        assert parameters["limit"] == {"type": "integer", "minimum": 1, "maximum": 200}, path
        assert parameters["offset"] == {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}, path


@pytest.fixture
def everyone(db):
    return api_client_for(make_staff("all-roles", *Role))


def test_every_list_answers_the_envelope(schema, everyone):
    table = make_table(make_game())
    tournament = TournamentFactory()
    for path in list_operations(schema):
        url = path.replace("{id}", str(tournament.pk if path.startswith("/api/tournaments/") else table.pk))
        if path.startswith("/api/loyalty/players/"):
            url = path.replace("{id}", str(PlayerFactory().pk))
        # A list that is a search needs its term (the players' `q`).
        required = {
            parameter["name"]: "a"
            for parameter in schema["paths"][path]["get"].get("parameters", [])
            if parameter["in"] == "query" and parameter.get("required")
        }
        response = everyone.get(url, required)
        assert response.status_code == 200, (path, response.json())
        assert set(response.json()) == {"count", "next", "previous", "results"}, path


@pytest.fixture
def sixty_novaks(db):
    return [PlayerFactory(last_name="Novák", first_name=f"Jan{n:02d}") for n in range(60)]


def query_of(url: str) -> dict:
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


def test_a_list_longer_than_a_page_comes_a_page_at_a_time(api, floor, sixty_novaks):
    client = api(floor)
    first = client.get("/api/players/", {"q": "novak"})
    assert first.status_code == 200
    body = first.json()
    assert (body["count"], len(body["results"]), body["previous"]) == (60, 50, None)
    assert query_of(body["next"]) == {"q": "novak", "limit": "50", "offset": "50"}
    expected = list(
        Player.objects.filter(last_name_key="novak")
        .order_by("last_name_key", "first_name_key", "pk")
        .values_list("pk", flat=True)
    )
    last = client.get(body["next"]).json()
    assert (last["count"], len(last["results"]), last["next"]) == (60, 10, None)
    assert query_of(last["previous"]) == {"q": "novak", "limit": "50"}
    assert [row["id"] for row in body["results"] + last["results"]] == expected


def test_limit_and_offset_choose_the_rows(api, floor, sixty_novaks):
    body = api(floor).get("/api/players/", {"q": "novak", "limit": 7, "offset": 21}).json()
    assert (body["count"], len(body["results"])) == (60, 7)
    assert query_of(body["next"])["offset"] == "28" and query_of(body["previous"])["offset"] == "14"
    assert api(floor).get("/api/players/", {"q": "novak", "limit": 200}).json()["next"] is None


def test_an_offset_past_the_end_is_an_empty_page(api, floor, sixty_novaks):
    body = api(floor).get("/api/players/", {"q": "novak", "offset": 500}).json()
    assert (body["count"], body["results"], body["next"]) == (60, [], None)


@pytest.mark.parametrize(
    ("parameter", "value", "message"),
    [
        ("limit", "abc", "Give a whole number from 1 to 200."),
        ("limit", "", "Give a whole number from 1 to 200."),
        ("limit", "0", "Give a whole number from 1 to 200."),
        ("limit", "201", "Give a whole number from 1 to 200."),
        ("limit", "-5", "Give a whole number from 1 to 200."),
        ("limit", "2.5", "Give a whole number from 1 to 200."),
        ("limit", "٣", "Give a whole number from 1 to 200."),
        ("offset", "-1", "Give a whole number from 0 to 2147483647."),
        ("offset", "1e3", "Give a whole number from 0 to 2147483647."),
        ("offset", "9" * 5000, "Give a whole number from 0 to 2147483647."),
    ],
)
def test_a_bad_page_parameter_is_a_400_naming_it(api, floor, sixty_novaks, parameter, value, message):
    response = api(floor).get("/api/players/", {"q": "novak", parameter: value})
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": {parameter: [message]}, "rule": ""}


def test_the_public_board_is_paged_too(client):
    response = client.get("/api/cashgame/board/", {"limit": "x"})
    assert response.status_code == 400
    assert client.get("/api/cashgame/board/").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


def test_a_list_view_without_the_paginator_is_refused_at_once():
    class Forgetful(APIView):
        def get(self, request):
            return paginated_response(request=request, view=self, items=[], serializer_class=None)

    request = APIRequestFactory().get("/")
    with pytest.raises(ImproperlyConfigured, match="Forgetful answers a list"):
        Forgetful().get(Forgetful().initialize_request(request))


def test_a_list_in_no_order_is_refused_at_once():
    """Each page is its own query: without an order the database may repeat or skip rows."""

    class Unordered(APIView):
        pagination_class = Pagination

        def get(self, request):
            items = Player.objects.order_by()
            return paginated_response(request=request, view=self, items=items, serializer_class=None)

    request = APIRequestFactory().get("/")
    with pytest.raises(ImproperlyConfigured, match="Unordered pages a list in no order"):
        Unordered().get(Unordered().initialize_request(request))
