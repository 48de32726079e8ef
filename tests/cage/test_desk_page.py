"""CAG-5 at the desk's page: amounts typed the way staff type them are read exactly, a large
one is read back in words and needs a second tap, a double tap posts once."""

import pytest

from cashgame.models import PlayerSession, SeatState
from cashgame.services.sessions import session_seat
from cashier.models import CashierTransaction
from players.services import player_verify_id
from reports.selectors.books import books_problems
from tests.cashgame.conftest import T0, make_game, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_table(db):
    """NLHE 5/10 EUR, buy-in 500.00 to 3,000.00 EUR."""
    return make_table(
        make_game(name="NLHE 5/10", small=500, big=1_000, min_buy_in=50_000, max_buy_in=300_000), 7
    )


def desk_form(client, **fields):
    page = client.get("/cashier/")
    return {"idempotency_key": page.context["form"]["idempotency_key"].value(), "method": "cash", **fields}


@pytest.fixture
def desk(client, cashier, floor, shift, big_table, player):
    session_seat(actor=floor, table=big_table, player=player, seat=5, now=T0)
    client.force_login(cashier)
    return client


@pytest.mark.parametrize(
    ("language", "typed"),
    [("en", "1,500"), ("en", "1 500"), ("sk", "1 500"), ("sk", "1.500,00"), ("sk", "1500")],
)
def test_a_large_buy_in_is_read_back_and_needs_a_second_tap__CAG_5(desk, big_table, player, language, typed):
    desk.cookies["django_language"] = language
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount=typed)
    first = desk.post("/cashier/", form)
    assert first.status_code == 200
    shown = first.content.decode()
    figures = "1,500.00 EUR" if language == "en" else "1\xa0500,00 EUR"
    assert figures in shown
    assert ("one thousand, five hundred euro" if language == "en" else "tisícpäťsto eur") in shown
    assert 'name="confirm_amount" value="150000"' in shown
    assert f'value="{typed}"' in shown  # what was typed stays in the field
    assert not CashierTransaction.objects.exists()
    second = desk.post("/cashier/", {**form, "confirm_amount": "150000"})
    assert second.status_code == 302
    record = CashierTransaction.objects.get()
    assert record.amount_cents == 150_000
    assert PlayerSession.objects.get().buy_in_cents == 150_000
    assert books_problems() == []


def test_a_changed_amount_is_asked_again__CAG_5(desk, big_table, player):
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="2,000")
    answer = desk.post("/cashier/", {**form, "confirm_amount": "150000"})
    assert answer.status_code == 200
    assert 'name="confirm_amount" value="200000"' in answer.content.decode()
    assert not CashierTransaction.objects.exists()


def test_an_amount_that_could_mean_two_is_refused_on_the_page__CAG_5(desk, big_table, player):
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="1.500")
    answer = desk.post("/cashier/", form)
    text = answer.content.decode()
    assert "“1.500” could mean 1.50 EUR or 1,500.00 EUR" in text
    assert 'value="1.500"' in text
    assert not CashierTransaction.objects.exists()


def test_a_slovak_decimal_comma_below_the_threshold_goes_through_at_once__CAG_5(desk, big_table, player):
    desk.cookies["django_language"] = "sk"
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="600,50")
    assert desk.post("/cashier/", form).status_code == 302
    assert CashierTransaction.objects.get().amount_cents == 60_050


def test_the_reported_cash_out_of_1500_is_paid_1500__CAG_5(desk, big_table, player, manager):
    # 1,500 in and 1,500 out in cash pass the AML threshold of 2,000: the ID is verified.
    player_verify_id(actor=manager, player=player)
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="1 500")
    assert desk.post("/cashier/", {**form, "confirm_amount": "150000"}).status_code == 302
    PlayerSession.objects.update(state=SeatState.PLAYING)
    out = desk_form(desk, kind="cash_out", player=player.pk, amount="1,500")
    answer = desk.post("/cashier/", {**out, "confirm_amount": "150000"})
    assert answer.status_code == 302
    assert CashierTransaction.objects.get(kind="cash_out").amount_cents == 150_000
    assert books_problems() == []


def test_a_double_tap_posts_once__CAG_2(desk, big_table, player):
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="600")
    first = desk.post("/cashier/", form)
    again = desk.post("/cashier/", form)
    assert first.status_code == again.status_code == 302
    assert first.url == again.url
    assert CashierTransaction.objects.count() == 1
    assert books_problems() == []


def test_the_cash_game_desk_asks_for_the_second_tap_too__CAG_5(
    client, cashier, floor, shift, big_table, player
):
    session_seat(actor=floor, table=big_table, player=player, seat=2, now=T0)
    client.force_login(cashier)
    form = {
        "idempotency_key": "cg-desk-large-0001",
        "table": big_table.pk,
        "player": player.card_number,
        "amount": "1 200",
        "method": "cash",
    }
    first = client.post("/cashgame/desk/buy-in/", form)
    assert first.status_code == 200
    text = first.content.decode()
    assert "1,200.00 EUR" in text and "one thousand, two hundred euro" in text
    assert 'name="idempotency_key" value="cg-desk-large-0001"' in text
    assert not CashierTransaction.objects.exists()
    second = client.post("/cashgame/desk/buy-in/", {**form, "confirm_amount": "120000"})
    assert second.status_code == 302
    assert PlayerSession.objects.get().buy_in_cents == 120_000
    assert books_problems() == []


@pytest.mark.parametrize(("language", "label"), [("en", "Table 7"), ("sk", "Stôl 7")])
def test_the_receipt_names_the_table_not_its_ledger_reference__CAG_4(
    desk, big_table, player, language, label
):
    desk.cookies["django_language"] = language
    form = desk_form(desk, kind="cash_buy_in", player=player.pk, table=big_table.pk, amount="600")
    desk.post("/cashier/", form)
    receipt = desk.get(f"/cashier/receipts/{CashierTransaction.objects.get().pk}/").content.decode()
    assert f"<dd>{label}</dd>" in receipt
    assert "table:" not in receipt
    assert "drawer:" not in receipt


def test_the_cash_game_desk_keeps_what_was_typed_after_a_refusal__CAG_5(
    client, cashier, floor, shift, big_table, player
):
    client.force_login(cashier)
    form = {
        "idempotency_key": "cg-desk-refused-0001",
        "table": big_table.pk,
        "player": player.card_number,
        "amount": "1 500",
        "method": "cash",
        "confirm_amount": "150000",
    }
    # Not seated by the floor and no seat given: refused by the game, the form comes back as typed.
    answer = client.post("/cashgame/desk/buy-in/", form)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert 'name="amount" value="1 500"' in text
    assert f'name="player" value="{player.card_number}"' in text
    assert 'class="error-box"' in text
    assert "Idempotency key" not in text
    assert not CashierTransaction.objects.exists()
    assert not PlayerSession.objects.exists()
