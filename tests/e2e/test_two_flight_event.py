"""Browser journey: a two-flight event (SER-2). The flights' entries are bought at the cashier
through the services; in the browser the floor ends each flight's day, bags its survivors seat
by seat on a tablet with a second signer (a bag one thousand short is shown at once and
corrected), draws the Day 2 from the event page, and the room sees the seat list on the TV and a
player finds his seat and count on his phone. The books agree at the end."""

import random

import pytest

from cardroom.roles import Role
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD, make_staff
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Bag, Entry, EntryStatus
from tournaments.services.events import event_create, event_day_two_set, event_flight_add
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_register, tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
LEVELS = [(25, 50, 1200), (50, 100, 1200), (100, 200, 1200)]


def _flights(floor, manager, cashier):
    """1A: Ace, Bee, Cid, Dot (Dot busts); 1B: Ace, Eve, Fin (Fin busts). 20,000 chips each."""
    event = event_create(actor=manager, name="Autumn Main")
    shift = shift_open(actor=cashier, opening_float_cents=50_000)
    players = {
        name: PlayerFactory(first_name=name, last_name="Novák", nickname=name, card_number=f"{730_000 + n}")
        for n, name in enumerate(["Ace", "Bee", "Cid", "Dot", "Eve", "Fin"])
    }
    flights = {}
    for label, names, bust in (
        ("1A", ["Ace", "Bee", "Cid", "Dot"], "Dot"),
        ("1B", ["Ace", "Eve", "Fin"], "Fin"),
    ):
        flight = TournamentFactory(name=f"Autumn Main {label}", min_players=2, table_size=9, levels=LEVELS)
        event_flight_add(actor=manager, event=event, tournament=flight, label=label)
        for name in names:
            entry_register(
                actor=cashier,
                tournament=flight,
                player=players[name],
                shift=shift,
                idempotency_key=f"e2e-event-{label}-{name}",
            )
        tournament_start(actor=floor, tournament=flight, rng=random.Random(3))
        out = Entry.objects.get(tournament=flight, player=players[bust])
        entry_bust(actor=floor, tournament=flight, busted=[(out.pk, None)])
        flights[label] = flight
    day_two = TournamentFactory(
        name="Autumn Main Day 2", min_players=2, status="scheduled", levels=LEVELS, prize_cents=0, fee_cents=0
    )
    event_day_two_set(actor=manager, event=event, tournament=day_two)
    return event, flights, players, day_two


def _bag_flight(page, live_server, flight, counts: dict, witness) -> None:
    """End the flight's day, then type each survivor's count at his seat and sign."""
    page.goto(f"{live_server.url}/tournaments/{flight.pk}/bags/")
    page.click("button:has-text('End the day')")
    page.wait_for_selector("text=The day is over")
    for entry in Entry.objects.filter(tournament=flight, status=EntryStatus.ACTIVE).select_related("player"):
        page.fill(f"input[name=count_{entry.pk}]", counts[entry.player.nickname])
    form = page.locator("form.bag-table").first
    form.locator("select[name=witness]").select_option(str(witness.pk))
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button:has-text('Sign the bags')").click()
    page.wait_for_selector("text=The bags are recorded and signed.")


def test_two_flight_event_bagged_drawn_and_shown__SER_2(browser, live_server, floor, manager, cashier):
    witness = make_staff("floor2", Role.FLOOR)
    event, flights, players, day_two = _flights(floor, manager, cashier)
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        log_in(page, live_server, "floor1", PASSWORD)
        # 1A: 80,000 chips in play; Bee's bag typed 1,000 short, shown at once, then corrected.
        _bag_flight(
            page, live_server, flights["1A"], {"Ace": "30,000", "Bee": "25 000", "Cid": "24000"}, witness
        )
        figures = page.locator(".bag-figures")
        assert "80,000" in figures.inner_text() and "-1,000" in figures.inner_text()
        bee = Entry.objects.get(tournament=flights["1A"], player=players["Bee"])
        page.fill(f"input[name=count_{bee.pk}]", "26,000")
        page.locator("select[name=witness]").first.select_option(str(witness.pk))
        page.locator("input[name=password]").first.fill(PASSWORD)
        page.locator("button:has-text('Sign the bags')").first.click()
        page.wait_for_selector(".bag-figures.ok")
        screenshot(page, "event-bag-and-tag-1024")

        # 1B: Ace bags more here (35,000): his 1A bag becomes void.
        _bag_flight(page, live_server, flights["1B"], {"Ace": "35,000", "Eve": "25,000"}, witness)
        assert page.locator(".bag-figures.ok").count() == 1
        assert Bag.objects.get(flight=flights["1A"], player=players["Ace"]).void is True

        page.goto(f"{live_server.url}/tournaments/events/{event.pk}/")
        assert page.locator("tr.void").count() == 1
        page.click("button:has-text('Draw the Day 2')")
        page.wait_for_selector("text=The Day 2 is drawn")
        seated = {
            entry.player.nickname: (entry.table.number, entry.seat, entry.starting_stack_chips)
            for entry in Entry.objects.filter(tournament=day_two).select_related("player", "table")
        }
        assert {name: chips for name, (_t, _s, chips) in seated.items()} == {
            "Ace": 35_000,
            "Bee": 26_000,
            "Cid": 24_000,
            "Eve": 25_000,
        }
        page.click("a:has-text('Seat list to print')")
        assert page.locator(".seat-list tbody tr").count() == 4

        tv = context.new_page()
        tv.set_viewport_size({"width": 1920, "height": 1080})
        tv.goto(f"{live_server.url}/tv/events/{event.pk}/day-two/")
        rows = tv.locator(".tv-seat-list tbody tr")
        assert rows.count() == 4
        table, seat, _chips = seated["Ace"]
        assert rows.first.inner_text().split() == ["Ace", str(table), str(seat), "35,000"]
        screenshot(tv, "event-day-two-tv-1920")

        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
        phone.goto(f"{live_server.url}/room/tournaments/{day_two.pk}/?find=Eve")
        answer = phone.locator(".lobby-answer").inner_text()
        table, seat, _chips = seated["Eve"]
        assert f"table {table}, seat {seat}" in answer and "you start with 25,000 chips" in answer
        screenshot(phone, "event-day-two-phone-390")
        phone.context.close()
    finally:
        context.close()
    assert books_problems() == []
