"""Bad input never reaches a 500: a document nested a thousand levels deep, a NUL character
anywhere in a request, and a list asked for without its search term are each refused with a 400
that names the problem, and nothing is written."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.parsers import MAX_DEPTH, UnsafeJSON, json_loads
from cashier.models import Shift
from players.models import Player
from tests.conftest import PASSWORD
from tests.factories import PlayerFactory
from tournaments.models import BlindStructure
from tournaments.services.structures import structure_import

pytestmark = pytest.mark.django_db

DEEP_LISTS = "[" * 1000 + "]" * 1000
DEEP_OBJECTS = '{"a":' * 1000 + "1" + "}" * 1000
TOO_DEEP = {
    "code": "json_too_deep",
    "detail": "The JSON nests objects and lists more than 32 levels deep. Send a flatter document.",
    "rule": "",
}
NUL_REFUSED = {
    "code": "nul_character",
    "detail": (
        "The request holds a NUL character (\\u0000), which no text may contain. Remove it and send again."
    ),
    "rule": "",
}
PLAYER = {"first_name": "Ann", "last_name": "Bee", "date_of_birth": "1980-01-01"}


def written() -> tuple[int, int, int, int]:
    return (
        Player.objects.count(),
        Shift.objects.count(),
        BlindStructure.objects.count(),
        AuditRecord.objects.count(),
    )


def test_depth_limit_takes_32_levels_and_refuses_33():
    assert json_loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) == json.loads("[" * 32 + "]" * 32)
    with pytest.raises(UnsafeJSON) as refused:
        json_loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert refused.value.code == "json_too_deep"
    with pytest.raises(UnsafeJSON):
        json_loads("[" * 100_000 + "]" * 100_000)  # deeper than the interpreter's own stack


@pytest.mark.parametrize("body", [DEEP_LISTS, DEEP_OBJECTS], ids=["lists", "objects"])
@pytest.mark.parametrize(
    "who, path",
    [
        (None, "/api/auth/token/"),  # the one body an anonymous client sends
        ("cashier", "/api/players/"),
        ("cashier", "/api/cashier/shifts/"),  # a money request (its own parser list)
        ("manager", "/api/structures/"),
        ("floor", "/api/cashgame/calculators/side-pots/"),
    ],
)
def test_json_nested_a_thousand_levels_refused_with_400_logged_in_or_not(request, api, who, path, body):
    client = api(request.getfixturevalue(who) if who else None)
    before = written()
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == TOO_DEEP
    assert written() == before


def test_structure_file_nested_a_thousand_levels_refused__TRN_7(manager, api, client):
    deep = '{"name": "Deep", "levels": ' + DEEP_LISTS + "}"
    with pytest.raises(DomainError) as refused:
        structure_import(actor=manager, content=deep, file_format="json")
    assert (refused.value.code, refused.value.rule) == ("invalid_structure_file", "TRN-7")
    assert refused.value.message == TOO_DEEP["detail"]
    response = api(manager).post(
        "/api/structures/import/", {"file_format": "json", "content": deep}, format="json"
    )
    assert (response.status_code, response.json()) == (
        400,
        {"code": "invalid_structure_file", "detail": TOO_DEEP["detail"], "rule": "TRN-7"},
    )
    client.force_login(manager)
    upload = SimpleUploadedFile("deep.json", deep.encode())
    page = client.post("/tournaments/structures/import/", {"name": "", "file": upload})
    assert page.status_code == 200
    assert TOO_DEEP["detail"] in page.content.decode()
    assert not BlindStructure.objects.filter(name="Deep").exists()


@pytest.mark.parametrize(
    "content, file_format",
    [
        ('{"name": "Nul", "levels": [{"minutes": 20, "big_blind_chips": 50, "note": "a\\u0000b"}]}', "json"),
        ("small_blind_chips,big_blind_chips,minutes,note\n25,50,20,a\x00b\n", "csv"),
    ],
)
def test_structure_file_holding_a_nul_refused__TRN_7(manager, content, file_format):
    with pytest.raises(DomainError) as refused:
        structure_import(actor=manager, name="Nul", content=content, file_format=file_format)
    assert (refused.value.code, refused.value.message) == ("invalid_structure_file", NUL_REFUSED["detail"])
    assert not BlindStructure.objects.filter(name="Nul").exists()


def test_nul_in_player_search_refused_with_400(api, cashier, client):
    PlayerFactory(last_name="Novák")
    response = api(cashier).get("/api/players/", {"q": "No\x00v"})
    assert (response.status_code, response.json()) == (400, NUL_REFUSED)
    client.force_login(cashier)
    page = client.get("/players/", {"q": "No\x00v"})
    assert page.status_code == 400
    assert "Nothing was changed." in page.content.decode()


def test_nul_in_a_json_text_refused_and_nothing_written(api, cashier):
    before = written()
    response = api(cashier).post("/api/players/", {**PLAYER, "nickname": "A\x00B"}, format="json")
    assert (response.status_code, response.json()) == (400, NUL_REFUSED)
    key_with_nul = api(cashier).post(
        "/api/players/", '{"first_name\\u0000": "A"}', content_type="application/json"
    )
    assert (key_with_nul.status_code, key_with_nul.json()) == (400, NUL_REFUSED)
    assert written() == before


def test_nul_in_a_page_form_refused_and_nothing_written(client, cashier):
    client.force_login(cashier)
    before = written()
    response = client.post("/players/new/", {**PLAYER, "last_name": "Be\x00e"})
    assert response.status_code == 400
    assert NUL_REFUSED["detail"] in response.content.decode()
    assert written() == before


def test_nul_in_the_address_or_a_header_refused_with_400(cashier):
    token = Token.objects.create(user=cashier)
    client = APIClient()
    assert client.get("/api/players/%00/").json() == NUL_REFUSED
    response = client.get("/api/players/", {"q": "a"}, HTTP_AUTHORIZATION=f"Token {token.key}\x00")
    assert (response.status_code, response.json()) == (400, NUL_REFUSED)
    assert client.get("/api/players/", {"q": "a"}, HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200


def test_nul_in_a_cookie_refused_with_a_page_drawn_for_nobody(client, cashier):
    client.force_login(cashier)
    page = client.get("/players/", HTTP_COOKIE="sessionid=abcdefgh\x00ijkl")
    assert page.status_code == 400
    assert NUL_REFUSED["detail"] in page.content.decode()
    assert "Log out" not in page.content.decode()


def test_nul_in_the_log_in_form_refused(client, cashier):
    response = client.post("/login/", {"username": "cashier1\x00", "password": PASSWORD})
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


SEARCH_TERM_NEEDED = {
    "code": "invalid",
    "detail": {"q": ["Give a search term: a card number, or the start of a name or a nickname."]},
    "rule": "",
}


@pytest.mark.parametrize("query", [{}, {"q": ""}, {"q": "   "}], ids=["absent", "empty", "blank"])
def test_player_list_without_a_search_term_refused_naming_q(api, cashier, query):
    PlayerFactory.create_batch(60)
    response = api(cashier).get("/api/players/", query)
    assert (response.status_code, response.json()) == (400, SEARCH_TERM_NEEDED)
    found = api(cashier).get("/api/players/", {"q": "First"}).json()
    assert found["count"] == 60
