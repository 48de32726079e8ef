"""The floor's dealer page (templates/cashgame/dealer.html) at a new game (CSH-6, HND-2): the
first hand deals in the players who just bought in without a "posted" tap, its button is the
draw's, and a refused step shows its error next to the field it concerns, with what was sent,
in English and Slovak, writing nothing."""

import re

import pytest
from django.conf import settings
from django.utils import translation

from cardroom.models import AuditRecord
from cashgame.models import Hand, HandStatus, PlayerSession, SeatState
from cashgame.services.sessions import session_buy_in, session_state_change
from reports.selectors.books import books_problems
from tests.cashgame.conftest import key
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(cashier, shift, table12):
    """Three players just bought in (seats 2, 3, 4): each waits for the button, nobody posted."""
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
        for seat, name in ((2, "Tomas"), (3, "Ace"), (4, "Nits"))
    ]


def url(table, step: str = "") -> str:
    return f"/cashgame/tables/{table.pk}/dealer/{step + '/' if step else ''}"


def error_for(html: str, field_id: str, error_id: str) -> str:
    assert re.search(rf'id="{field_id}"[^>]*aria-invalid="true" aria-describedby="{error_id}"', html)
    return re.search(rf'<p class="error" role="alert" id="{error_id}">([^<]*)</p>', html).group(1)


def counts() -> tuple[int, int]:
    return Hand.objects.count(), AuditRecord.objects.count()


def test_first_hand_of_a_new_game_needs_no_posted_tap__CSH_6_HND_2(client, floor, table12, new_game):
    client.force_login(floor)
    page = client.get(url(table12))
    html = page.content.decode()
    assert [row["seat"] for row in page.context["seats"] if row["playing"]] == [2, 3, 4]
    assert "First hand of the game" in html
    assert html.count('type="checkbox" name="seats"') == 3
    assert '<option value="">Seat that won the draw</option>' in html and " selected>" not in html
    # Nothing to post at the first hand: each seat offers "sits out" only.
    assert html.count("Dealt in at the game's first hand") == 3
    assert (
        html.count('value="posted"'),
        html.count('value="button_passed"'),
        html.count('value="sit_out"'),
    ) == (
        0,
        0,
        3,
    )

    # Deal without the draw's seat: the error is beside the button, the ticks stay, nothing written.
    before = counts()
    response = client.post(url(table12, "start"), {"seats": ["2", "4"]})
    html = response.content.decode()
    assert response.status_code == 400
    assert error_for(html, "id_button_seat", "button-error") == (
        "Button: draw for it (the highest card takes it) and choose the seat that won the draw."
    )
    assert html.count('name="seats" value="2" checked') + html.count('name="seats" value="4" checked') == 2
    assert 'name="seats" value="3">' in html
    assert "This field is required." not in html and counts() == before

    # Nobody ticked: the error is beside the players dealt in.
    response = client.post(url(table12, "start"), {"button_seat": "3"})
    assert re.search(r'<fieldset class="tiles" aria-describedby="seats-error">', response.content.decode())
    assert re.search(
        r'id="seats-error">Dealt in: tick the players dealt in, at least two.<', response.content.decode()
    )
    assert counts() == before

    response = client.post(url(table12, "start"), {"seats": ["2", "3", "4"], "button_seat": "3"})
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.dealt_seats, hand.button_seat) == ([2, 3, 4], 3)
    assert set(PlayerSession.objects.values_list("state", flat=True)) == {SeatState.PLAYING}
    client.post(url(table12, "flop"))
    assert client.post(url(table12, "end"), {"pot": "60"}).status_code == 302
    hand.refresh_from_db()
    assert (hand.status, hand.pot_cents, hand.rake_cents, hand.jackpot_drop_cents) == (
        HandStatus.ENDED,
        6_000,
        300,
        0,
    )
    assert "Hand 1 ended: rake 3.00 EUR, jackpot drop 0.00 EUR." in client.get(url(table12)).content.decode()
    assert books_problems() == []


def test_a_refused_end_is_shown_beside_the_pot_with_what_was_typed__CSH_4_RAK_6(
    client, floor, table12, new_game
):
    client.force_login(floor)
    client.post(url(table12, "start"), {"seats": ["2", "3", "4"], "button_seat": "2"})
    before = counts()
    response = client.post(url(table12, "end"), {"pot": "400"})
    html = response.content.decode()
    assert response.status_code == 400 and 'value="400"' in html
    assert error_for(html, "id_pot", "pot-error") == (
        "A pot of 400.00 EUR is more than all the chips in play at Table 1 (300.00 EUR): check the amount."
    )
    response = client.post(url(table12, "end"), {"pot": "90", "side_pots": "30 + 50"})
    assert error_for(response.content.decode(), "id_side_pots", "side-pots-error") == (
        "The pots add up to 80.00 EUR, not to the pot of 90.00 EUR: check the amounts."
    )
    assert counts() == before and Hand.objects.get().status == HandStatus.IN_PROGRESS


def test_deal_is_offered_disabled_with_the_reason_below_two_players_in_play__BET_1(
    client, floor, table12, new_game
):
    for session in new_game[1:]:
        session_state_change(actor=floor, session=session, action="sit_out")
    client.force_login(floor)
    html = client.get(url(table12)).content.decode()
    assert "A hand needs at least two players in play." in html
    assert re.search(
        r'<button class="primary big" type="submit" disabled aria-describedby="deal-needs-two">', html
    )


def test_the_first_hand_on_the_slovak_dealer_page__CSH_6_HND_2(client, floor, table12, new_game):
    client.force_login(floor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    try:
        html = client.get(url(table12)).content.decode()
        assert "Prvá hra od otvorenia stola" in html and "Miesto, ktoré vyhralo losovanie" in html
        html = client.post(url(table12, "start"), {"seats": ["2", "3", "4"]}).content.decode()
        assert "Toto pole je povinné." not in html
        assert error_for(html, "id_button_seat", "button-error") == (
            "Button: vylosujte ho (button dostane najvyššia karta) a vyberte miesto, "
            "ktoré v losovaní vyhralo."
        )
        client.post(url(table12, "start"), {"seats": ["2", "3", "4"], "button_seat": "4"})
        client.post(url(table12, "flop"))
        assert client.post(url(table12, "end"), {"pot": "12,50"}).status_code == 302
        assert "Hra 1 skončila: rake 0,50 EUR" in client.get(url(table12)).content.decode()
    finally:
        translation.activate(settings.LANGUAGE_CODE)
    assert (Hand.objects.get().pot_cents, Hand.objects.get().rake_cents) == (1_250, 50)
    assert books_problems() == []
