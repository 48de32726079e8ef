"""The desk knows the floor and says what it did (CAG-4, CAG-6, CHP-2, CSH-2, CSH-3): a sale's
message names the receipt, the amount, the player and the table or tournament with a print link,
at every desk; an action the rules refuse now is shown disabled with the reason in plain words;
and every door that sells cash-game chips moves the same chips."""

import re

import pytest
from django.db.models import Sum

from cashgame.models import PlayerSession, SeatState
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_seat, session_stack_report
from cashier.models import CashierTransaction
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipEntry
from reports.selectors.books import books_problems
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, cashier, shift):
    client.force_login(cashier)
    return client


def action(page: str, slug: str) -> str:
    """One action of the desk's page, a form or, when refused, its card."""
    return re.search(rf'<(form|div)[^>]*id="action-{slug}".*?</\1>', page, re.S).group(0)


def hidden(page: str, slug: str) -> dict:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', action(page, slug)))


def in_hands() -> dict[int, int]:
    rows = (
        ChipEntry.objects.filter(account__kind=ChipAccountKind.HANDS)
        .values("denomination__value")
        .annotate(total=Sum("quantity"))
    )
    return {row["denomination__value"]: row["total"] for row in rows if row["total"]}


def bought_in(desk, floor, table, seat: int):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=seat, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    desk.post("/cashier/", {**hidden(page, "buy-in"), "amount": "200", "method": "cash"})
    PlayerSession.objects.filter(player=player).update(state=SeatState.PLAYING)
    return player


def test_the_floors_player_needs_only_the_amount_typed__CAG_6(desk, floor, table):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=4, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    form = action(page, "buy-in")
    # The table travels hidden; the amount is the field the cursor is in; cash is the default.
    assert "Buy-in at Table 1, seat 4" in form
    assert hidden(page, "buy-in")["table"] == str(table.pk)
    assert re.search(r'<input[^>]*name="amount"[^>]*autofocus', form)
    assert 'name="table"' not in form.replace('type="hidden" name="table"', "")
    assert 'id="player-search"' in page and "autofocus" not in re.search(
        r"<input[^>]*player-search[^>]*>", page
    ).group(0)


def test_a_top_up_during_a_hand_is_shown_disabled_with_the_reason__CSH_3(desk, floor, table):
    first, second = bought_in(desk, floor, table, 1), bought_in(desk, floor, table, 2)
    hand_start(actor=floor, table=table, seats=[1, 2], now=T0)
    page = desk.get("/cashier/", {"player": first.pk}).content.decode()
    top_up = action(page, "top-up")
    assert top_up.startswith('<div class="action card stack refused"')
    assert "A hand is in progress at Table 1: top up when it ends." in top_up
    assert re.search(r"<button[^>]*disabled", top_up) and "<form" not in top_up
    cash_out = action(page, "cash-out")
    assert (
        f"{first.full_name} is dealt in the hand in progress at Table 1: cash out when it ends." in cash_out
    )
    assert re.search(r"<button[^>]*disabled", cash_out)
    assert second  # also dealt in


def test_a_cash_out_with_nothing_on_the_table_is_shown_disabled__CSH_2(desk, floor, table):
    player = bought_in(desk, floor, table, 3)
    session_stack_report(actor=floor, session=PlayerSession.objects.get(player=player), chips_cents=0, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    cash_out = action(page, "cash-out")
    assert (
        f"The dealer counted no chips in front of {player.full_name} at Table 1: "
        "there is nothing to cash out." in cash_out
    )
    assert re.search(r"<button[^>]*disabled", cash_out)


def test_a_sale_the_cage_has_no_chips_for_is_shown_disabled__CHP_2(client, cashier, floor, table):
    shift_open(actor=cashier, opening_float_cents=10_000, now=T0)  # no chips brought to the cage
    client.force_login(cashier)
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=1, now=T0)
    page = client.get("/cashier/", {"player": player.pk}).content.decode()
    buy_in = action(page, "buy-in")
    assert "The cage holds no cash-game chips: bring chips from the vault to the cage first." in buy_in
    assert re.search(r"<button[^>]*disabled", buy_in)
    assert "Chips in the cage: 0.00 EUR" in page


def test_the_cash_game_desk_names_the_receipt_with_a_print_link__CAG_4(client, cashier, floor, shift, table):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=6, now=T0)
    client.force_login(cashier)
    form = {
        "idempotency_key": key(),
        "table": table.pk,
        "player": player.card_number,
        "amount": "250",
        "method": "cash",
    }
    page = client.post("/cashgame/desk/buy-in/", form, follow=True).content.decode()
    record = CashierTransaction.objects.get()
    assert (
        f"Receipt {record.receipt_number} · Cash-game buy-in 250.00 EUR · {player.full_name} · "
        "Table 1, seat 6" in page
    )
    assert f'href="/cashier/receipts/{record.pk}/?print=1">Print receipt {record.receipt_number}</a>' in page


def test_the_desks_message_in_slovak__CAG_4(desk, floor, table):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=2, now=T0)
    desk.cookies["django_language"] = "sk"
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    answer = desk.post("/cashier/", {**hidden(page, "buy-in"), "amount": "150,50", "method": "cash"})
    assert answer.status_code == 302
    text = desk.get(answer.url).content.decode()
    assert f"Doklad 1 · Vklad do cash hry 150,50 EUR · {player.full_name} · Stôl 1, miesto 2" in text
    assert "Vytlačiť doklad 1" in text


def test_every_door_sells_the_same_chips__CHP_2_CAG_6(api, client, cashier, floor, shift, table):
    players = [PlayerFactory(id_verified_at=T0) for _ in range(4)]
    # The cage's desk page, for a player the floor seated.
    session_seat(actor=floor, table=table, player=players[0], seat=1, now=T0)
    client.force_login(cashier)
    page = client.get("/cashier/", {"player": players[0].pk}).content.decode()
    client.post("/cashier/", {**hidden(page, "buy-in"), "amount": "200", "method": "cash"})
    assert in_hands() == {2500: 8}
    # The cage's API.
    body = {"kind": "cash_buy_in", "shift": shift.pk, "player": players[1].pk, "table": table.pk, "seat": 2}
    response = api(cashier).post(
        "/api/cashier/transactions/", {**body, "amount_cents": 20_000}, HTTP_IDEMPOTENCY_KEY=key()
    )
    assert response.status_code == 201
    assert in_hands() == {2500: 16}
    # The cash-game desk's page.
    form = {"idempotency_key": key(), "table": table.pk, "player": players[2].card_number, "seat": 3}
    assert (
        client.post("/cashgame/desk/buy-in/", {**form, "amount": "200", "method": "cash"}).status_code == 302
    )
    assert in_hands() == {2500: 24}
    # The cash game's API.
    body = {"shift": shift.pk, "table": table.pk, "player": players[3].pk, "seat": 4, "amount_cents": 20_000}
    response = api(cashier).post("/api/cashgame/sessions/buy-in/", {**body, "idempotency_key": key()})
    assert response.status_code == 201, response.json()
    assert in_hands() == {2500: 32}
    assert books_problems() == []


def test_the_receipt_link_prints_the_receipt__CAG_4(desk, floor, table):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=3, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    desk.post("/cashier/", {**hidden(page, "buy-in"), "amount": "100", "method": "cash"})
    receipt = desk.get(f"/cashier/receipts/{CashierTransaction.objects.get().pk}/", {"print": "1"})
    assert '<script src="/static/js/receipt.js" defer></script>' in receipt.content.decode()


def test_cash_chips_reach_players_only_with_money_so_the_move_page_does_not_offer_it__CHP_2(desk):
    from chips.models import ChipSet, ChipSetKind

    cash = ChipSet.objects.get(kind=ChipSetKind.CASH)
    tournament = ChipSet.objects.get(kind=ChipSetKind.TOURNAMENT)
    assert "Sold to players at the cage" not in desk.get(f"/cashier/chips/{cash.pk}/move/").content.decode()
    assert "Sold to players at the cage" in desk.get(f"/cashier/chips/{tournament.pk}/move/").content.decode()
