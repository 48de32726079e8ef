"""A person's name is something a person can read (cardroom/names.py): names and nicknames made
only of invisible characters, or carrying a right-to-left override or a control character, are
refused at every door that takes one, naming the field, and nothing is written."""

import pytest
from django.core.cache import cache

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.names import person_name_problem
from cashgame.models import WaitingEntry
from dealers.models import Dealer
from players.models import Player
from players.services import player_create
from tests.cashgame.conftest import make_game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

INVISIBLE = "It has no visible letter. Type the name as it is written."
OVERRIDE = (
    "It holds a character that turns the direction of the text (a right-to-left override). "
    "Type the name without it."
)
CONTROL = "It holds a control character, such as a line break or a tab. Type the name on one line."

REFUSED = [
    ("\u200b", "name_invisible"),  # zero-width space
    ("\u200b\u200c\u200d\u2060\ufeff", "name_invisible"),  # joiners, word joiner, BOM
    ("\u3164", "name_invisible"),  # Hangul filler: a "letter" that draws nothing
    ("\u2800\u2800", "name_invisible"),  # blank Braille pattern
    ("\u0301\u0308", "name_invisible"),  # accents with no letter to sit on
    ("\u200e\u200f", "name_invisible"),  # direction marks alone
    ("Anna\u202e", "name_direction_override"),
    ("\u202eannA", "name_direction_override"),
    ("Ann\u2067a\u2069", "name_direction_override"),  # an isolate
    ("Ann\na", "name_control_character"),
    ("Ann\ta", "name_control_character"),
]
ACCEPTED = [
    "Ľubomír",
    "Ťažký-O'Brien",
    "李小龍",
    "محمد",
    "שרה\u200f",  # a right-to-left mark inside a name with letters
    "e\u0301mile",  # a letter with its combining accent
    "Ace 🂡",
    "Anna\u200dMaria",
]


@pytest.mark.parametrize(("name", "code"), REFUSED)
def test_unreadable_names_refused(name, code):
    assert person_name_problem(name)[0] == code


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_of_every_script_kept(name):
    assert person_name_problem(name) is None


def written() -> tuple[int, int, int, int]:
    return (
        Player.objects.count(),
        WaitingEntry.objects.count(),
        Dealer.objects.count(),
        AuditRecord.objects.count(),
    )


@pytest.mark.parametrize(("name", "code"), REFUSED)
def test_player_service_refuses_an_unreadable_nickname_naming_it__PLY_1(cashier, name, code):
    with pytest.raises(DomainError) as refused:
        player_create(
            actor=cashier, first_name="Ann", last_name="Bee", nickname=name, date_of_birth="1980-01-01"
        )
    message = {
        "name_invisible": INVISIBLE,
        "name_direction_override": OVERRIDE,
        "name_control_character": CONTROL,
    }
    assert refused.value.as_dict() == {"code": code, "detail": f"Nickname: {message[code]}", "rule": "PLY-1"}
    assert written() == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("field", "name", "message"),
    [
        ("first_name", "\u200b\u200b", INVISIBLE),
        ("last_name", "\u3164", INVISIBLE),
        ("nickname", "\u202eecA", OVERRIDE),
        ("last_name", "Bee\u202e", OVERRIDE),
    ],
)
def test_player_api_refuses_unreadable_names_naming_the_field__PLY_1(api, cashier, field, name, message):
    body = {"first_name": "Ann", "last_name": "Bee", "date_of_birth": "1980-01-01", field: name}
    response = api(cashier).post("/api/players/", body, format="json")
    assert (response.status_code, response.json()) == (
        400,
        {"code": "invalid", "detail": {field: [message]}, "rule": ""},
    )
    player = PlayerFactory(nickname="Ace")
    before = written()
    edit = api(cashier).patch(f"/api/players/{player.pk}/", {field: name}, format="json")
    assert (edit.status_code, edit.json()["detail"]) == (400, {field: [message]})
    assert written() == before
    player.refresh_from_db()
    assert (player.nickname, player.first_name.startswith("First")) == ("Ace", True)


def test_player_page_refuses_an_invisible_name_next_to_its_field__PLY_1(client, cashier):
    client.force_login(cashier)
    body = {"first_name": "\u200b", "last_name": "Bee", "date_of_birth": "1980-01-01"}
    response = client.post("/players/new/", body)
    assert response.status_code == 200
    assert response.context["form"].errors == {"first_name": [INVISIBLE]}
    assert written() == (0, 0, 0, 0)


@pytest.fixture
def clean_cache():
    """The phone joins' attempt counter lives in the cache."""
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize(("nickname", "message"), [("\u3164\u3164", INVISIBLE), ("\u202eecA", OVERRIDE)])
def test_phone_join_refuses_an_unreadable_nickname__WTL_1(client, clean_cache, nickname, message):
    game = make_game()
    before = written()
    response = client.post("/wait/", {"game": [game.pk], "nickname": nickname, "phone": "+421 905 123 456"})
    assert response.status_code == 400
    assert f"Nickname: {message}" in response.content.decode()
    assert written() == before


def test_dealer_with_an_invisible_name_refused__DLR_1(client, manager):
    client.force_login(manager)
    response = client.post("/dealers/add/", {"name": "\u200b\u2060"}, follow=True)
    assert [str(message) for message in response.context["messages"]] == [f"Name: {INVISIBLE}"]
    assert written() == (0, 0, 0, 0)
    client.post("/dealers/add/", {"name": "Zuzana"})
    assert list(Dealer.objects.values_list("name", flat=True)) == ["Zuzana"]
