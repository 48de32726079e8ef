"""The player-centric desk: find the player by card, name or nickname, see his seat, session,
entries and what he is owed, and act in one tap through the cage's one door (CAG-6). Typed
values survive a refusal (CAG-5); keys are hidden fields, never labels (CAG-2)."""

import random
import re

import pytest

from cardroom.models import IdempotentRequest
from cashgame.models import PlayerSession, SeatState
from cashgame.services.sessions import session_seat
from cashier.models import CashierTransaction
from reports.selectors.books import books_problems
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory
from tournaments.models import Entry
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_register, tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, cashier, shift):
    client.force_login(cashier)
    return client


def action_form(page: str, slug: str) -> dict:
    """The hidden fields of one action's form on the desk, as a browser would send them."""
    form = re.search(rf'<form[^>]*id="action-{slug}".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_a_swiped_card_goes_straight_to_the_player(desk):
    player = PlayerFactory(card_number="424242")
    answer = desk.get("/cashier/", {"q": "424242"})
    assert (answer.status_code, answer.url) == (302, f"/cashier/?player={player.pk}")


def test_a_nickname_lists_every_player_it_matches(desk):
    shark = PlayerFactory(first_name="Ján", last_name="Šťastný", nickname="Shark")
    sharp = PlayerFactory(first_name="Eva", last_name="Sharp", nickname="")
    page = desk.get("/cashier/", {"q": "shar"}).content.decode()
    assert f'href="?player={shark.pk}"' in page and f'href="?player={sharp.pk}"' in page


def test_the_floors_seat_is_sold_chips_in_one_tap__CAG_6(desk, floor, table, player):
    session_seat(actor=floor, table=table, player=player, seat=3, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    assert "Buy-in at Table 1, seat 3" in page
    hidden = action_form(page, "buy-in")
    assert hidden["kind"] == "cash_buy_in" and hidden["table"] == str(table.pk)
    answer = desk.post("/cashier/", {**hidden, "amount": "200", "method": "cash"})
    assert answer.status_code == 302
    record = CashierTransaction.objects.get()
    assert (record.kind, record.player_id, record.amount_cents, record.reference) == (
        "cash_buy_in",
        player.pk,
        20_000,
        f"table:{table.pk}",
    )
    session = PlayerSession.objects.get()
    assert (session.seat, session.buy_in_cents, session.state) == (3, 20_000, SeatState.WAITING_FOR_BUTTON)
    # Back at the player: the message names the receipt, the amount, the player, the table and
    # the seat, with the receipt to print; the desk now offers a top-up and a cash-out.
    assert answer.url == f"/cashier/?player={player.pk}&done={record.pk}"
    page = desk.get(answer.url).content.decode()
    assert (
        f'<span class="done-line">Receipt 1 · Cash-game buy-in 200.00 EUR · {player.full_name} · '
        "Table 1, seat 3</span>"
    ) in page
    assert f'href="/cashier/receipts/{record.pk}/?print=1">Print receipt 1</a>' in page
    assert 'id="action-top-up"' in page and 'id="action-cash-out"' in page
    receipt = desk.get(f"/cashier/receipts/{record.pk}/").content.decode()
    assert "<dd>Table 1</dd>" in receipt and "<dd>3</dd>" in receipt and "200.00 EUR" in receipt
    assert books_problems() == []


def test_a_refused_top_up_keeps_the_amount_as_typed_and_writes_nothing__CAG_5(
    desk, floor, cashier, shift, table
):
    player = PlayerFactory(id_verified_at=T0)
    session_seat(actor=floor, table=table, player=player, seat=4, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    desk.post("/cashier/", {**action_form(page, "buy-in"), "amount": "300", "method": "cash"})
    PlayerSession.objects.update(state=SeatState.PLAYING)
    before = (CashierTransaction.objects.count(), IdempotentRequest.objects.count())
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    top_up = {**action_form(page, "top-up"), "amount": "1 500", "method": "cash"}
    # Over the confirm threshold: read back first, the typed text kept in its own form.
    first = desk.post("/cashier/", top_up).content.decode()
    assert "1,500.00 EUR" in first and "one thousand, five hundred euro" in first
    assert 'name="amount" value="1 500"' in first and 'id="id_top-up_amount"' in first
    # Confirmed, but the dealer's count is missing: refused, the amount still as typed.
    second = desk.post("/cashier/", {**top_up, "confirm_amount": "150000"}).content.decode()
    assert "Give the chips the dealer counted in front of the player." in second
    assert 'name="amount" value="1 500"' in second
    assert (CashierTransaction.objects.count(), IdempotentRequest.objects.count()) == before
    assert PlayerSession.objects.get().top_up_cents == 0


def test_bad_input_on_an_action_is_refused_with_the_reason_and_nothing_written__CAG_5(
    desk, floor, table, player
):
    session_seat(actor=floor, table=table, player=player, seat=2, now=T0)
    page = desk.get("/cashier/", {"player": player.pk}).content.decode()
    answer = desk.post("/cashier/", {**action_form(page, "buy-in"), "amount": "1.500", "method": "cash"})
    text = answer.content.decode()
    assert answer.status_code == 200
    assert "“1.500” could mean 1.50 EUR or 1,500.00 EUR" in text
    assert 'name="amount" value="1.500"' in text
    assert not CashierTransaction.objects.exists()
    assert PlayerSession.objects.get().buy_in_cents == 0


def test_what_the_player_is_owed_is_paid_in_one_tap__CAG_6(desk, cashier, floor, shift, tournament):
    winner, loser = PlayerFactory(), PlayerFactory()
    entries = [
        entry_register(
            actor=cashier, tournament=tournament, player=p, shift=shift, idempotency_key=key(), now=T0
        )
        for p in (winner, loser)
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[1].pk, 100)], now=T0)
    prize = Entry.objects.get(pk=entries[0].pk).prize_cents
    assert prize == 18_000  # two buy-ins of 90.00 EUR to the pool, all to the winner
    page = desk.get("/cashier/", {"player": winner.pk}).content.decode()
    assert "Prize, 1. place, " + tournament.name in page
    assert "Pay 180.00 EUR" in page
    answer = desk.post("/cashier/", action_form(page, "pay-0"))
    assert answer.status_code == 302
    paid = CashierTransaction.objects.get(kind="prize_payout")
    assert (paid.player_id, paid.amount_cents) == (winner.pk, 18_000)
    message = desk.get(answer.url).content.decode()
    assert f"Receipt 3 · Prize payout 180.00 EUR · {winner.full_name} · {tournament.name}, entry 1" in message
    receipt = desk.get(f"/cashier/receipts/{paid.pk}/").content.decode()
    assert tournament.name in receipt and "<dd>1</dd>" in receipt
    # Paid: the button is gone, and the same tap again pays nothing more (CAG-2).
    assert "Pay 180.00 EUR" not in desk.get("/cashier/", {"player": winner.pk}).content.decode()
    assert desk.post("/cashier/", action_form(page, "pay-0")).url == answer.url
    assert CashierTransaction.objects.filter(kind="prize_payout").count() == 1
    assert books_problems() == []


# Session and user, the shift, the drawer's balance, the shift's transactions, the player, his
# session, entries, prizes, bounties, refunds, jackpot shares and last transactions, the cage's
# cash-game chips (CHP-2: a buy-in the cage cannot pay in chips is not offered), the open tables
# and the tournaments of the full form, and the navigation's role look-ups. (One more while a
# hand is in progress at the player's table: whether the player is dealt in.) And his loyalty
# points (LOY-1), and his high-hand prizes (LOY-2). And the cage's printers, with the one this
# shift prints on (CAG-4; its prints that did not come out are read only where there is one).
DESK_QUERIES = 21


def test_the_desk_with_a_player_reads_a_fixed_number_of_queries(
    desk, cashier, floor, shift, table, player, django_assert_num_queries
):
    session_seat(actor=floor, table=table, player=player, seat=3, now=T0)
    desk.get("/cashier/", {"player": player.pk})
    with django_assert_num_queries(DESK_QUERIES):
        assert desk.get("/cashier/", {"player": player.pk}).status_code == 200
    for seat in (5, 6, 7):  # more transactions on the shift and the table: the same count
        other = PlayerFactory(id_verified_at=T0)
        session_seat(actor=floor, table=table, player=other, seat=seat, now=T0)
        page = desk.get("/cashier/", {"player": other.pk}).content.decode()
        desk.post("/cashier/", {**action_form(page, "buy-in"), "amount": "150", "method": "cash"})
    assert CashierTransaction.objects.count() == 3
    with django_assert_num_queries(DESK_QUERIES):
        assert desk.get("/cashier/", {"player": player.pk}).status_code == 200


@pytest.mark.parametrize(
    "url",
    ["/cashier/", "/cashgame/desk/", "/cashier/shifts/open/", "close", "register"],
)
def test_no_cashier_page_labels_a_key_or_names_a_rule_in_a_heading__CAG_2(
    client, cashier, shift, tournament, player, url
):
    client.force_login(cashier)
    url = {
        "close": f"/cashier/shifts/{shift.pk}/close/",
        "register": f"/tournaments/{tournament.pk}/register/",
    }.get(url, url)
    if url == "/cashier/":
        url = f"/cashier/?player={player.pk}"
    page = client.get(url).content.decode()
    assert "dempotency" not in re.sub(r'name="idempotency_key"|id="id_[a-z_-]*idempotency_key"', "", page)
    headings = " ".join(re.findall(r"<h[1-3][^>]*>(.*?)</h[1-3]>", page, re.S))
    assert not re.search(r"\b[A-Z]{3}-\d+\b", headings)
    assert 'type="hidden" name="idempotency_key"' in page or url.endswith("/open/") or "close" in url
