"""WTL-3: the public pages and screens (the room page, a tournament's page and its seat finder,
the TV clock, the waiting board) show nicknames or initials only, never a full name or a card
number, unless the player opted in to his full name (staff set it on his card); even then,
never his card number."""

import re

import pytest
from django.db import transaction

from cardroom.models import AuditRecord
from cardroom.roles import Role
from players.models import Player
from players.selectors import public_names
from players.services import player_update
from tests.factories import PlayerFactory
from tests.pages.room import build_room

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _room(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_room()
        transaction.set_rollback(True)


@pytest.fixture
def room(_room, db):
    return _room


def public_pages(client, room) -> str:
    """Everything the public sees of the room: pages, their live parts and the screens' polls."""
    tournament = room.objects["tournament"].pk
    addresses = ["/room/", "/room/live/", f"/tv/{tournament}/", f"/tv/{tournament}/state.json"]
    addresses += ["/board/", "/board/rows/", f"/room/tournaments/{tournament}/"]
    pages = [client.get(address).content.decode() for address in addresses]
    # The seat finder, asked for every player in the room by every name he has; what the
    # visitor typed is shown back to him, so it is left out of what the page tells.
    for player in room.players:
        for query in {player.nickname, player.first_name, player.card_number, player.full_name} - {""}:
            page = client.get(f"/room/tournaments/{tournament}/", {"find": query}).content.decode()
            pages.append(page.replace(query, ""))
    return "\n".join(pages)


def card_numbers_in(text: str, players) -> list[str]:
    # Not inside a longer number (a timestamp's microseconds).
    return [p.card_number for p in players if re.search(rf"(?<![\d.]){p.card_number}(?!\d)", text)]


def test_public_pages_never_show_a_full_name_or_a_card_number__WTL_3(client, room):
    text = public_pages(client, room)
    # The pages do name players: the waiting board and the seat finder (nickname or initials).
    assert "Eva V." in text and "Ace" in text
    assert [p.full_name for p in room.players if p.full_name in text] == []
    assert [p.last_name for p in room.players if p.last_name in text] == []
    assert card_numbers_in(text, room.players) == []


def test_a_player_who_opted_in_is_shown_by_full_name_but_never_his_card_number__WTL_3(client, room):
    eva, lukas = room.players[3], room.players[4]  # both waiting for 1/2; Lukáš "Ace" also plays
    for player in (eva, lukas):
        player_update(actor=room.staff[Role.FLOOR], player=player, public_full_name=True)
    text = public_pages(client, room)
    assert "Eva Varga" in text and "Lukáš Tóth" in text
    others = [p for p in room.players if p not in (eva, lukas)]
    assert [p.full_name for p in others if p.full_name in text] == []
    assert card_numbers_in(text, room.players) == []


def test_public_names_opt_in_gives_the_full_name_only_to_who_asked__WTL_3(db):
    shy = PlayerFactory(first_name="Peter", last_name="Kováč", nickname="")
    proud = PlayerFactory(first_name="Marek", last_name="Mráz", nickname="Nits", public_full_name=True)
    twin = PlayerFactory(first_name="Marek", last_name="Mráz", nickname="", public_full_name=True)
    assert public_names([shy, proud, twin]) == {
        shy.pk: "Peter K.",
        proud.pk: "Marek Mráz",
        twin.pk: "Marek Mráz 2",
    }


def test_staff_set_the_opt_in_on_the_player_card_and_it_is_audited__WTL_3(client, cashier):
    player = PlayerFactory(first_name="Oľga", last_name="Bieliková")
    client.force_login(cashier)
    page = client.get(f"/players/{player.pk}/edit/").content.decode()
    assert 'name="public_full_name"' in page
    form = {
        "first_name": "Oľga",
        "last_name": "Bieliková",
        "date_of_birth": "1985-05-17",
        "card_number": player.card_number,
        "id_document_type": player.id_document_type,
        "id_document_number": player.id_document_number,
        "public_full_name": "on",
    }
    response = client.post(f"/players/{player.pk}/edit/", form)
    assert response.status_code == 302, response.context["form"].errors
    assert Player.objects.get(pk=player.pk).public_full_name is True
    record = AuditRecord.objects.filter(action="player.update", object_id=str(player.pk)).get()
    assert (record.before["public_full_name"], record.after["public_full_name"]) == (False, True)
    detail = client.get(f"/players/{player.pk}/").content.decode()
    assert "Full name (the player agreed)" in detail
