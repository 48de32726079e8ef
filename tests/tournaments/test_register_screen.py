"""The tournament cashier's one screen (TRN-6, TRN-9, CAG-4): the tournament stays chosen, the
player is found or put on file, one tap takes the buy-in, and the entry, its table and seat
and the receipt show on the same screen for the next player."""

import random
import re

import pytest
from django.utils import timezone

from cardroom.models import IdempotentRequest
from cashier.models import CashierTransaction
from players.models import Player
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tournaments.models import Entry
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def screen(client, cashier, shift):
    client.force_login(cashier)
    return client


def key_of(page: str) -> str:
    return re.search(r'<input type="hidden" name="idempotency_key" value="([^"]+)"', page).group(1)


@pytest.fixture
def seated_tournament(floor, make_tournament, register):
    """Four players in, seats drawn at the start, late registration open."""
    tournament = make_tournament(late_registration_level=6, table_size=9, prize_cents=9_000, fee_cents=1_000)
    for _ in range(4):
        register(tournament)
    return tournament_start(actor=floor, tournament=tournament, now=timezone.now(), rng=random.Random(5))


def test_one_tap_registers_seats_and_shows_the_receipt_on_the_same_screen__CAG_4_CAG_6(
    screen, seated_tournament
):
    tournament = seated_tournament
    player = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151")
    url = f"/tournaments/{tournament.pk}/register/"
    page = screen.get(url, {"player": player.pk}).content.decode()
    assert "Eva Malá" in page and "Take 100.00 EUR and register" in page
    answer = screen.post(
        url, {"idempotency_key": key_of(page), "player": player.pk, "method": "cash", "present": "on"}
    )
    entry = Entry.objects.get(player=player)
    assert (answer.status_code, answer.url) == (302, f"{url}?done={entry.pk}")
    assert (entry.number, entry.table.number, entry.cashier_transaction.amount_cents) == (5, 1, 10_000)
    done = screen.get(answer.url).content.decode()
    receipt = re.search(r'<article class="card done-receipt".*?</article>', done, re.S).group(0)
    assert f"<dd>{tournament.name}</dd>" in receipt
    assert "<dd>5</dd>" in receipt
    assert f'<dd class="seat">Table 1, seat {entry.seat}</dd>' in receipt
    assert f"100.00 EUR · Receipt {entry.cashier_transaction.receipt_number}" in receipt
    assert "Next player" in done  # the same tournament, a fresh form with a new key
    assert key_of(done) != key_of(page)
    # The printable receipt names the tournament, the entry, the table and the seat too.
    printed = screen.get(f"/cashier/receipts/{entry.cashier_transaction_id}/").content.decode()
    assert f"<dd>{tournament.name}</dd>" in printed and "<dd>5</dd>" in printed
    assert f"<strong>Table 1, seat {entry.seat}</strong>" in printed
    assert books_problems() == []


def test_the_screen_remembers_the_tournament(screen, seated_tournament):
    screen.get(f"/tournaments/{seated_tournament.pk}/register/")
    page = screen.get("/tournaments/cashier/").content.decode()
    assert f'href="/tournaments/{seated_tournament.pk}/register/"' in page
    assert f"Back to {seated_tournament.name}" in page
    switched = screen.get("/tournaments/cashier/", {"t": seated_tournament.pk})
    assert switched.url == f"/tournaments/{seated_tournament.pk}/register/"


def test_a_double_tap_registers_once__CAG_2(screen, seated_tournament):
    player = PlayerFactory()
    url = f"/tournaments/{seated_tournament.pk}/register/"
    form = {
        "idempotency_key": key_of(screen.get(url).content.decode()),
        "player": player.pk,
        "method": "cash",
    }
    assert screen.post(url, form).url == screen.post(url, form).url
    assert Entry.objects.filter(player=player).count() == 1


def test_a_refused_registration_keeps_the_player_chosen_and_writes_nothing__TRN_6(
    screen, seated_tournament, register
):
    player = PlayerFactory(first_name="Ján", last_name="Živý")
    register(seated_tournament, player=player)  # he still has a live entry
    before = (CashierTransaction.objects.count(), IdempotentRequest.objects.count())
    url = f"/tournaments/{seated_tournament.pk}/register/"
    form = {
        "idempotency_key": key_of(screen.get(url).content.decode()),
        "player": player.pk,
        "method": "card",
    }
    page = screen.post(url, form).content.decode()
    assert "Ján Živý still has a live entry" in page
    assert f'name="player" value="{player.pk}"' in page and '<option value="card" selected>' in page
    assert (CashierTransaction.objects.count(), IdempotentRequest.objects.count()) == before


def test_a_new_player_is_put_on_file_and_chosen__PLY_1(screen, seated_tournament):
    url = f"/tournaments/{seated_tournament.pk}/register/"
    answer = screen.post(
        url,
        {
            "new_player": "1",
            "new-first_name": "Anna",
            "new-last_name": "Nová",
            "new-date_of_birth": "1990-04-02",
        },
    )
    anna = Player.objects.get(last_name="Nová")
    assert answer.url == f"{url}?player={anna.pk}"
    assert "Anna Nová" in screen.get(answer.url).content.decode()


def test_a_new_player_with_bad_input_is_refused_with_what_was_typed__PLY_1(screen, seated_tournament):
    url = f"/tournaments/{seated_tournament.pk}/register/"
    page = screen.post(
        url,
        {"new_player": "1", "new-first_name": "Anna", "new-last_name": "", "new-date_of_birth": "02.04.19x"},
    ).content.decode()
    assert 'value="Anna"' in page and 'value="02.04.19x"' in page
    assert "This field is required." in page
    assert not Player.objects.filter(first_name="Anna").exists()
