"""Browser journey: the tournament floor at the seating chart (TRN-9, TRN-10). Twelve players
bought in at the cashier; the floor busts one player from his seat in two taps (tap the seat, tap
Bust), then two players out in the same hand with their chips, confirms the balancing move, and
puts the button at a seat. Screenshots at tablet and desk size; the books agree at the end."""

import random

import pytest

from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, MoveSlip
from tournaments.services.registration import entry_register, tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Taps:
    """Counts the floor's taps on the page, from the seating chart on."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.count += 1


def test_floor_busts_a_player_from_the_seating_chart_in_two_taps__TRN_10(
    browser, live_server, floor, cashier
):
    tournament = TournamentFactory(
        name="Sunday Freezeout",
        min_players=9,
        table_size=9,
        late_registration_level=0,
        levels=[(25, 50, 1200), (50, 100, 1200), (100, 200, 1200)],
    )
    shift = shift_open(actor=cashier, opening_float_cents=50_000)
    nicknames = ["Ace", "Bee", "Cid", "Dot", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]
    for number, nickname in enumerate(nicknames):
        player = PlayerFactory(
            first_name=nickname, last_name="Novák", nickname=nickname, card_number=f"{720_000 + number}"
        )
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"e2e-floor-{number:03d}",
        )
    tournament_start(actor=floor, tournament=tournament, rng=random.Random(5))

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, live_server, "floor1", PASSWORD)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        assert page.locator(".floor-table").count() == 2
        assert page.locator(".seat.taken").count() == 12
        screenshot(page, "tournament-floor-seating-1280")

        # One player out: tap his seat, tap Bust.
        target = Entry.objects.filter(tournament=tournament).order_by("table__number", "seat").first()
        taps = Taps(page)
        taps.tap(f"[data-seat='{target.table.number}-{target.seat}']")
        page.wait_for_selector("#seat-panel.open")
        screenshot(page, "tournament-floor-seat-panel-1280")
        taps.tap("#seat-panel button:has-text('Bust')")
        page.wait_for_selector("text=Bust-out recorded.")
        assert taps.count == 2
        target.refresh_from_db()
        assert (target.status, target.finish_place) == ("busted", 12)
        assert page.locator(".seat.taken").count() == 11

        # Two out in one hand at the table with more players: each one's chips are asked.
        table = max(
            {entry.table for entry in Entry.objects.filter(tournament=tournament, status="active")},
            key=lambda t: t.entries.filter(status="active").count(),
        )
        first, second = list(Entry.objects.filter(table=table, status="active").order_by("seat"))[:2]
        page.click(f"[data-seat='{table.number}-{first.seat}']")
        page.click("#seat-panel a:has-text('Another player is out in this hand')")
        page.wait_for_selector("text=Tap the seats of the other players out in this hand.")
        page.click(f"[data-seat='{table.number}-{second.seat}']")
        page.wait_for_selector(f"input[name=stack_{second.pk}]")
        page.fill(f"input[name=stack_{first.pk}]", "12,000")
        page.fill(f"input[name=stack_{second.pk}]", "30000")
        page.click("#seat-panel button:has-text('Bust 2 players')")
        page.wait_for_selector("text=Bust-out recorded.")
        first.refresh_from_db()
        second.refresh_from_db()
        assert (first.finish_place, second.finish_place) == (11, 10)  # the bigger stack finishes higher

        # Nine are left: the table that breaks first sends its players to the other (TRN-9).
        slips = MoveSlip.objects.filter(tournament=tournament, confirmed_at__isnull=True).count()
        if slips:
            screenshot(page, "tournament-floor-moves-1280")
            page.click("button:has-text('Confirm all moves')")
            page.wait_for_selector("text=Every move is confirmed.")
        assert not MoveSlip.objects.filter(tournament=tournament, confirmed_at__isnull=True).exists()

        # Button at seat N from the seat's panel.
        seated = (
            Entry.objects.filter(tournament=tournament, status="active")
            .order_by("table__number", "seat")
            .first()
        )
        page.click(f"[data-seat='{seated.table.number}-{seated.seat}']")
        page.click(f"#seat-panel button:has-text('Button at seat {seated.seat}')")
        page.wait_for_selector(f"text=Button at seat {seated.seat}.")
        seated.table.refresh_from_db()
        assert seated.table.button_seat == seated.seat
        assert page.locator(".dealer-button").count() == 1

        page.set_viewport_size({"width": 1920, "height": 1080})
        page.reload()
        screenshot(page, "tournament-floor-seating-1920")
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/levels/")
        screenshot(page, "tournament-floor-levels-1920")
        page.set_viewport_size({"width": 1280, "height": 800})
        screenshot(page, "tournament-floor-levels-1280")
    finally:
        context.close()
    assert books_problems() == []


def test_seating_chart_of_a_full_room_at_tablet_and_desk_size__TRN_9(browser, live_server, floor, cashier):
    """Forty players on five tables with a move waiting: screenshots for a person to look at."""
    from tournaments.services.payouts import entry_bust

    tournament = TournamentFactory(name="Big Sunday", min_players=9, table_size=9, levels=[(25, 50, 1200)])
    shift = shift_open(actor=cashier, opening_float_cents=0)
    for number in range(40):
        player = PlayerFactory(nickname=f"P{number + 1}")
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"e2e-room-{number:03d}",
        )
    tournament_start(actor=floor, tournament=tournament, rng=random.Random(8))
    table = Entry.objects.filter(tournament=tournament).order_by("table__number").first().table
    out = list(Entry.objects.filter(table=table).order_by("seat"))[:2]
    entry_bust(actor=floor, tournament=tournament, busted=[(out[0].pk, 500), (out[1].pk, 900)])
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    try:
        log_in(page, live_server, "floor1", PASSWORD)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        assert page.locator(".seat.taken").count() == 38
        screenshot(page, "tournament-floor-room-1920")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.click(
            f"[data-seat='{table.number}-{Entry.objects.filter(table=table, status='active').first().seat}']"
        )
        page.wait_for_selector("#seat-panel.open")
        screenshot(page, "tournament-floor-room-1280")
        page.set_viewport_size({"width": 390, "height": 844})
        screenshot(page, "tournament-floor-room-390")
        page.emulate_media(media="print")
        screenshot(page, "tournament-floor-move-slips-print")
        page.emulate_media(media="screen")
    finally:
        context.close()
    assert books_problems() == []


def test_structure_and_payout_editors_at_tablet_size__TRN_7(browser, live_server, manager):
    """The editors as a manager sees them: a row added and moved, a bad row named."""
    tournament = TournamentFactory(name="Editors", levels=[(25, 50, 1200)])
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    try:
        log_in(page, live_server, "manager1", PASSWORD)
        page.goto(f"{live_server.url}/tournaments/structures/new/")
        page.fill("#s-name", "Evening 15k")
        page.fill("input[name=sb_0]", "100")
        page.fill("input[name=bb_0]", "200")
        page.fill("input[name=minutes_0]", "20")
        page.click("button:has-text('Add a row')")
        page.fill("input[name=sb_1]", "50")
        page.fill("input[name=bb_1]", "100")
        page.fill("input[name=minutes_1]", "20")
        page.click("button:has-text('Save structure')")
        page.wait_for_selector("text=Row 2: the small blind goes down from 100 to 50; levels never decrease.")
        screenshot(page, "tournament-structure-editor-1280")
        page.click("button[aria-label='Move row 2 up']")
        page.click("button:has-text('Save structure')")
        page.wait_for_selector("text=Structure Evening 15k saved.")
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/payouts/table/")
        page.click("button:has-text('Add a place')")
        page.locator("input[name=place]").nth(0).fill("70")
        page.locator("input[name=place]").nth(1).fill("30")
        page.click("button:has-text('Save payout table')")
        page.wait_for_selector("text=Payout table saved.")
        screenshot(page, "tournament-payout-editor-1280")
    finally:
        context.close()
    assert books_problems() == []
