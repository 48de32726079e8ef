"""Success messages name the player or the amount, and say what happened to the card or the
shift rather than to the person, so the Slovak needs no gendered past participle."""

import pytest
from django.contrib.messages import get_messages

from cashier.models import Shift
from players.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_shift_open_and_close_messages_name_the_amounts__CAG_3(client, cashier):
    client.force_login(cashier)
    opened = client.post("/cashier/shifts/open/", {"opening_float": "500"})
    assert said(opened)[-1] == "Shift opened with a float of 500.00 EUR."
    shift = Shift.objects.get()
    count = {"d_10000": "4", "d_5000": "1"}
    first = client.post(
        f"/cashier/shifts/{shift.pk}/close/", {**count, "idempotency_key": "count-0001"}, follow=True
    )
    assert "The first count differs from what the drawer should hold by more than 5.00 EUR." in (
        first.content.decode()
    )
    closed = client.post(f"/cashier/shifts/{shift.pk}/close/", {**count, "idempotency_key": "count-0002"})
    assert said(closed)[-1] == "Shift closed: counted 450.00 EUR, expected 500.00 EUR, variance -50.00 EUR."


def test_shift_open_message_in_slovak_uses_slovak_separators(client, cashier):
    client.force_login(cashier)
    client.cookies["django_language"] = "sk"
    opened = client.post("/cashier/shifts/open/", {"opening_float": "500"}, HTTP_ACCEPT_LANGUAGE="sk")
    assert said(opened)[-1] == "Smena otvorená, počiatočný stav zásuvky 500,00 EUR."


def test_player_messages_name_the_player__PLY_1(client, cashier, manager):
    client.force_login(cashier)
    created = client.post(
        "/players/new/",
        {
            "first_name": "Zuzana",
            "last_name": "Horváth",
            "date_of_birth": "1990-04-02",
            "card_number": "555001",
        },
    )
    assert said(created)[-1] == "New player card: Zuzana Horváth, card number 555001."
    player = Player.objects.get(card_number="555001")
    edited = client.post(
        f"/players/{player.pk}/edit/",
        {
            "first_name": "Zuzana",
            "last_name": "Horváthová",
            "date_of_birth": "1990-04-02",
            "card_number": "555001",
        },
    )
    assert said(edited)[-1] == "Zuzana Horváthová: changes to the player card saved."


def test_verify_exclude_and_lift_messages_name_the_player__PLY_2(client, manager):
    player = PlayerFactory(first_name="Peter", last_name="Kováč", id_document_number="EA1")
    client.force_login(manager)
    verified = client.post(f"/players/{player.pk}/verify-id/")
    assert said(verified)[-1] == "Peter Kováč: ID document verified."
    excluded = client.post(
        f"/players/{player.pk}/exclude/",
        {"status": "self_excluded", "reason": "Vlastná žiadosť", "excluded_from": "2026-01-01"},
    )
    assert said(excluded)[-1] == "Peter Kováč: exclusion from play recorded."
    lifted = client.post(f"/players/{player.pk}/lift-exclusion/", {"reason": "Koniec obdobia"})
    assert said(lifted)[-1] == "Peter Kováč: exclusion lifted."
