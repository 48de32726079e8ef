"""Browser journey of a satellite (SER-1): the satellite's seats were given as tickets; at the
target's registration the cashier registers a ticket holder with one tap and the answer says
"ticket"; a manager reads the target's tickets page. The books agree at the end."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from cashier.models import AccountKind
from cashier.selectors import account_amount
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, Ticket
from tournaments.services.payouts import entry_bust, prize_pay
from tournaments.services.registration import entry_register, tournament_start
from tournaments.services.tickets import ticket_grant, ticket_refund, tournament_satellite_set

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_satellite_winner_registers_with_one_tap_SER_1(page, live_server, cashier, floor, manager):
    now = timezone.now() - timedelta(minutes=30)
    shift = shift_open(actor=cashier, opening_float_cents=50_000, now=now)
    target = TournamentFactory(
        name="Main Event", levels=LEVELS, min_players=2, prize_cents=27_000, fee_cents=3_000, start_at=now
    )
    satellite = TournamentFactory(
        name="Main Event Satellite", levels=LEVELS, min_players=2, prize_cents=10_000, fee_cents=1_000
    )
    tournament_satellite_set(actor=floor, tournament=satellite, target=target, now=now)
    names = ["Adam Novák", "Eva Malá", "Ivan Horváth", "Jana Veselá", "Peter Kráľ"]
    entries = [
        entry_register(
            actor=cashier,
            tournament=satellite,
            player=PlayerFactory(first_name=name.split()[0], last_name=name.split()[1]),
            shift=shift,
            idempotency_key=f"sat-e2e-{i}",
            now=now,
            rng=random.Random(i),
        )
        for i, name in enumerate(names * 2)
    ][:10]
    tournament_start(actor=floor, tournament=satellite, now=now, rng=random.Random(1))
    for n, entry in enumerate(reversed(entries[1:]), start=1):
        entry_bust(
            actor=floor, tournament=satellite, busted=[(entry.pk, None)], now=now + timedelta(seconds=n)
        )
    for entry in Entry.objects.filter(tournament=satellite, finish_place__lte=4).order_by("finish_place"):
        prize_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=f"sat-e2e-prize-{entry.pk}")
    ticket_grant(
        actor=manager,
        tournament=target,
        player=PlayerFactory(first_name="Lucia", last_name="Tichá"),
        reason="Leaderboard winner, October",
        expires_at=timezone.now() + timedelta(days=30),
    )
    first = Ticket.objects.get(satellite_place=1)

    log_in(page, live_server, cashier.username, PASSWORD)
    page.goto(f"{live_server.url}/tournaments/{target.pk}/register/")
    holders = page.locator("#ticket-holders")
    assert holders.locator("button", has_text="Register with ticket").count() == 4
    screenshot(page, "ser1-cage-ticket-holders")
    holders.locator("tr", has_text=first.player.full_name).locator("button").click()
    page.wait_for_selector("#done-receipt")
    assert "Ticket" in page.locator("#done-receipt").inner_text()
    screenshot(page, "ser1-cage-registered-with-ticket")
    entry = Entry.objects.get(tournament=target, player=first.player)
    assert (entry.cashier_transaction.method, entry.cashier_transaction.amount_cents) == ("ticket", 30_000)

    ticket_refund(
        actor=manager, ticket=Ticket.objects.get(satellite_place=3), reason="Cannot travel on the day"
    )
    page.context.clear_cookies()
    log_in(page, live_server, manager.username, PASSWORD)
    page.goto(f"{live_server.url}/tournaments/{target.pk}/tickets/")
    assert page.locator("#ticket-list tbody tr").count() == 4
    screenshot(page, "ser1-tickets-page")
    assert page.locator("#ticket-list").get_by_text("to be paid at the cage").count() == 1
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 2 * 30_000
    assert books_problems() == []
