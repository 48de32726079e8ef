"""The cage's "Register with ticket" button and the tournament's tickets page (SER-1)."""

import re

import pytest

from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tournaments.models import Entry, Ticket
from tournaments.services.tickets import ticket_grant, ticket_refund

pytestmark = pytest.mark.django_db


def key_of(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


@pytest.fixture
def target(make_tournament):
    return make_tournament(name="Main Event", prize_cents=27_000, fee_cents=3_000)


@pytest.fixture
def holder(manager, target):
    player = PlayerFactory(first_name="Jana", last_name="Veselá", card_number="777001")
    return ticket_grant(actor=manager, tournament=target, player=player, reason="Leaderboard prize")


def test_cage_registers_a_ticket_holder_with_one_tap_SER_1(client, cashier, shift, target, holder) -> None:
    client.force_login(cashier)
    url = f"/tournaments/{target.pk}/register/"
    page = client.get(url).content.decode()
    rows = re.search(r'<table class="data" id="ticket-holders">.*?</table>', page, re.S).group(0)
    assert "Jana Veselá" in rows and "Register with ticket" in rows and "disabled" not in rows
    form = re.search(r"<form method=\"post\">.*?</form>", rows, re.S).group(0)
    answer = client.post(
        url,
        {
            "idempotency_key": key_of(form),
            "player": holder.player_id,
            "ticket": holder.pk,
            "method": "cash",
            "present": "on",
        },
    )
    entry = Entry.objects.get(player=holder.player)
    assert (answer.status_code, answer.url) == (302, f"{url}?done={entry.pk}")
    record = entry.cashier_transaction
    assert (record.method, record.amount_cents) == ("ticket", 30_000)
    done = client.get(answer.url).content.decode()
    assert f"300.00 EUR · Receipt {record.receipt_number} · Ticket" in done
    assert 'id="ticket-holders"' not in done  # the ticket is used: no holder left
    receipt = client.get(f"/cashier/receipts/{record.pk}/").content.decode()
    assert re.search(r"<dt>Payment</dt><dd>Ticket</dd>", receipt)
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert books_problems() == []


def test_ticket_button_disabled_with_reason_when_registration_closed_SER_1(
    client, cashier, shift, target, holder
) -> None:
    from tournaments.services._common import rules_for

    rules = rules_for(target)
    rules.registration_closed_at = target.start_at
    rules.save()
    target.status = "running"
    target.save()
    client.force_login(cashier)
    page = client.get(f"/tournaments/{target.pk}/register/").content.decode()
    rows = re.search(r'<table class="data" id="ticket-holders">.*?</table>', page, re.S).group(0)
    assert "disabled" in rows and "Registration is closed." in rows


def test_tickets_page_lists_statuses_and_manager_actions_SER_1(client, manager, target, holder) -> None:
    ticket_refund(actor=manager, ticket=holder, reason="Moved abroad")
    ticket_grant(actor=manager, tournament=target, player=PlayerFactory(), reason="Birthday")
    client.force_login(manager)
    page = client.get(f"/tournaments/{target.pk}/tickets/").content.decode()
    assert "Moved abroad" in page and "to be paid at the cage" in page
    assert "Birthday" in page and "Give a ticket worth 300.00 EUR" in page
    assert re.search(r"<dt>Valid</dt><dd>1 · 300.00 EUR</dd>", page)
    assert re.search(r"<dt>Refunded</dt><dd>1 · 300.00 EUR</dd>", page)


def test_manager_grants_and_refund_without_reason_is_refused_on_the_page_SER_1(
    client, manager, target
) -> None:
    PlayerFactory(card_number="888002")
    client.force_login(manager)
    url = f"/tournaments/{target.pk}/tickets/"
    client.post(f"{url}grant/", {"card": "888002", "reason": "Loyalty"})
    ticket = Ticket.objects.get()
    assert (ticket.player.card_number, ticket.reason, ticket.value_cents) == ("888002", "Loyalty", 30_000)
    before = CashierTransaction.objects.count(), account_amount(kind=AccountKind.TICKETS_OUTSTANDING)
    answer = client.post(f"{url}refund/", {"ticket": ticket.pk, "reason": ""}, follow=True)
    assert "Say why the ticket is refunded." in answer.content.decode()
    ticket.refresh_from_db()
    assert ticket.status == "issued"
    assert (
        CashierTransaction.objects.count(),
        account_amount(kind=AccountKind.TICKETS_OUTSTANDING),
    ) == before


def test_cashier_cannot_grant_SER_1(client, cashier, target) -> None:
    PlayerFactory(card_number="888003")
    client.force_login(cashier)
    client.post(f"/tournaments/{target.pk}/tickets/grant/", {"card": "888003", "reason": "x"})
    assert Ticket.objects.count() == 0
