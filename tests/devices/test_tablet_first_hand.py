"""The dealer tablet at a new game (ROL-2, CSH-6, HND-2): the first hand is dealt and ended with
the tablet's taps alone (the seat that won the button draw, New hand, Flop dealt, End hand), no
"posted" tap at the floor's page first; every refusal on the tablet names its field and stands
next to it, in English and in Slovak, and writes nothing."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from cardroom.models import AuditRecord
from cashgame.models import Hand, HandStatus, PlayerSession, SeatState
from cashgame.services.sessions import session_buy_in
from reports.selectors.books import books_problems
from tests.cashgame.conftest import key
from tests.devices.conftest import pair
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(cashier, shift, table12):
    """Three players bought in at a table just opened: each waits for the button (no tap yet)."""
    return [
        session_buy_in(
            actor=cashier,
            shift=shift,
            table=table12,
            player=PlayerFactory(nickname=name),
            seat=seat,
            amount_cents=10_000,
            idempotency_key=key(),
        )
        for seat, name in ((2, "Ace"), (3, "Nits"), (4, "Tomas"))
    ]


@pytest.fixture
def tablet(manager, table12, new_game):
    return pair(Client(), manager=manager, table=table12)


def error_next_to(html: str, field_id: str, error_id: str) -> str:
    """The error shown for a field: the element the field (for the button: the seats' radios
    around the oval) names in aria-describedby."""
    field = r'name="button_seat"[^>]*' if field_id == "oval" else rf'id="{field_id}"[^>]*'
    assert re.search(rf'{field}aria-invalid="true" aria-describedby="{error_id}"', html), field_id
    return re.search(rf'<p class="error" role="alert" id="{error_id}">([^<]*)</p>', html).group(1)


def test_first_hand_of_a_new_game_with_the_tablets_taps_alone__CSH_6_HND_2_ROL_2(tablet, table12):
    page = tablet.get("/tablet/")
    html = page.content.decode()
    assert (page.context["playing_count"], page.context["button_draw"], page.context["next_button"]) == (
        3,
        True,
        None,
    )
    assert "First hand of the game" in html and "Draw for the button, then tap the seat that won" in html
    assert html.count('name="button_seat"') == 3 and " checked" not in html  # no button until drawn

    # New hand before the draw's seat is tapped: refused next to the button, nothing written.
    before = (Hand.objects.count(), AuditRecord.objects.count())
    response = tablet.post("/tablet/start/")
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count('aria-invalid="true" aria-describedby="button-error"') == 3  # each seat's radio
    assert error_next_to(html, "oval", "button-error") == (
        "Button: draw for it (one card to each player, the highest card takes it), "
        "tap the seat that won the draw, then New hand."
    )
    assert "Tap the seat that won the button draw" in html
    assert (Hand.objects.count(), AuditRecord.objects.count()) == before
    # The tablet's page, refused or not, has no staff menu and no log-out (ROL-2).
    for shown in (html, tablet.get("/tablet/").content.decode()):
        assert "<nav" not in shown and "mainnav" not in shown and "/logout/" not in shown

    # The seat that won the draw, then New hand: all three dealt in, no "posted" tap anywhere.
    assert tablet.post("/tablet/start/", {"button_seat": "3"})["Location"] == "/tablet/"
    hand = Hand.objects.get()
    assert (hand.dealt_seats, hand.button_seat, hand.dead_cents) == ([2, 3, 4], 3, 0)
    assert set(PlayerSession.objects.values_list("state", flat=True)) == {SeatState.PLAYING}
    tablet.post("/tablet/flop/")
    assert tablet.post("/tablet/end/", {"pot": "60"})["Location"] == "/tablet/"
    hand.refresh_from_db()
    # 5 % of 60.00 is 3.00 (RAK-3); three dealt in: no jackpot drop (JKP-1).
    assert (hand.status, hand.pot_cents, hand.rake_cents, hand.jackpot_drop_cents) == (
        HandStatus.ENDED,
        6_000,
        300,
        0,
    )
    page = tablet.get("/tablet/")
    assert (page.context["button_draw"], page.context["next_button"]) == (False, 4)
    assert "First hand of the game" not in page.content.decode()
    assert books_problems() == []


def test_every_refusal_of_the_end_names_its_field_beside_it_and_writes_nothing__ROL_2_RAK_6_CSH_4(
    tablet,
):
    tablet.post("/tablet/start/", {"button_seat": "2"})
    tablet.post("/tablet/flop/")
    before = (AuditRecord.objects.count(), Hand.objects.filter(status=HandStatus.IN_PROGRESS).count())
    cases = [
        ({"pot": ""}, "id_pot", "pot-error", "Final pot: type the pot, or the pots with + between them."),
        ({"pot": "12abc"}, "id_pot", "pot-error", "Final pot is not a number: 12abc"),
        (
            {"pot": "400"},
            "id_pot",
            "pot-error",
            "A pot of 400.00 EUR is more than all the chips in play at Table 1 (300.00 EUR): "
            "check the amount.",
        ),
        (
            {"pot": "90", "side_pots": "30 + 50"},
            "id_side_pots",
            "side-pots-error",
            "The pots add up to 80.00 EUR, not to the pot of 90.00 EUR: check the amounts.",
        ),
        ({"side_pots": "30 + x"}, "id_side_pots", "side-pots-error", "Side pots is not a number: x"),
    ]
    for body, field_id, error_id, message in cases:
        response = tablet.post("/tablet/end/", body)
        html = response.content.decode()
        assert response.status_code == 400, body
        assert error_next_to(html, field_id, error_id) == message
        assert "This field is required." not in html
        for name, value in body.items():  # what was typed stays
            assert re.search(rf'name="{name}"[^>]* value="{re.escape(value)}"', html), (name, value)
    assert (AuditRecord.objects.count(), Hand.objects.filter(status=HandStatus.IN_PROGRESS).count()) == before


def test_the_first_hand_on_the_slovak_tablet__CSH_6_HND_2(tablet):
    tablet.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    try:
        html = tablet.get("/tablet/").content.decode()
        assert "Prvá hra od otvorenia stola" in html and "Vylosujte button a ťuknite na miesto" in html
        response = tablet.post("/tablet/start/")
        html = response.content.decode()
        assert response.status_code == 400 and "Toto pole je povinné." not in html
        assert error_next_to(html, "oval", "button-error") == (
            "Button: vylosujte ho (každý hráč dostane jednu kartu, button dostane najvyššia), "
            "ťuknite na miesto, ktoré v losovaní vyhralo, a potom na Nová hra."
        )
        assert "Ťuknite na miesto, ktoré vyhralo losovanie buttonu" in html
        assert tablet.post("/tablet/start/", {"button_seat": "4"})["Location"] == "/tablet/"
        tablet.post("/tablet/flop/")
        html = tablet.post("/tablet/end/", {"pot": ""}).content.decode()
        assert error_next_to(html, "id_pot", "pot-error") == (
            "Konečný pot: zadajte pot alebo poty oddelené znamienkom +."
        )
        assert tablet.post("/tablet/end/", {"pot": "12,50"})["Location"] == "/tablet/"
        html = tablet.get("/tablet/").content.decode()
        # 5 % of 12.50 is 0.625, down to the 0.50 chip (RAK-3); three dealt in: no drop (JKP-1).
        assert "Hra 1 skončila: pot 12,50 EUR, rake 0,50 EUR, odvod do jackpotu 0,00 EUR." in html
    finally:
        translation.activate(settings.LANGUAGE_CODE)
    assert (Hand.objects.get().pot_cents, Hand.objects.get().rake_cents) == (1_250, 50)
    assert books_problems() == []
