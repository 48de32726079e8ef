"""Browser journey: late registration into a running tournament, then a bust-out, as the floor
works (TRN-1, TRN-9, TRN-10). Before the clock starts the floor's pages offer nothing the rules
will refuse: the start waits greyed out for the minimum, a seat's Bust waits for the clock. The
cashier takes four late entries at the desk: three fill table 1, the fourth opens table 2 and
four players move there. The floor taps a seat at table 1 and reads, before tapping Bust, that
table 2 breaks, one player moves and the four waiting moves are called off; after the tap there
is one slip, naming the player by entry number and nickname. The books agree at the end."""

import pytest

from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, MoveSlip
from tournaments.services.registration import entry_register

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NICKNAMES = ["Ace", "Shark", "Cech", "Nits", "Bluff", "Tomas", "Bluff", "Rock", "Fish", "Donk"]


def new_page(browser, *, width=1280, height=800, locale="en-GB"):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def waiting_slips(tournament):
    return MoveSlip.objects.filter(tournament=tournament, confirmed_at__isnull=True, replaced_at__isnull=True)


def test_late_entries_then_a_bust_move_the_fewest_players__TRN_9(browser, live_server, floor, cashier):
    tournament = TournamentFactory(
        name="Friday Regular 100 EUR",
        min_players=6,
        table_size=9,
        late_registration_level=3,
        levels=[(25, 50, 1200), (50, 100, 1200), (75, 150, 1200), (100, 200, 1200)],
    )
    shift = shift_open(actor=cashier, opening_float_cents=50_000)
    players = [
        PlayerFactory(
            first_name=f"Hráč{number}",
            last_name="Novák",
            nickname=nickname,
            card_number=f"{730_000 + number}",
        )
        for number, nickname in enumerate(NICKNAMES, start=1)
    ]
    for number, player in enumerate(players[:5], start=1):
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"e2e-late-{number:03d}",
        )

    floor_context, floor_page = new_page(browser)
    desk_context, desk = new_page(browser)
    try:
        log_in(floor_page, live_server, "floor1", PASSWORD)
        log_in(desk, live_server, "cashier1", PASSWORD)

        def register_at_the_desk(player) -> None:
            desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")
            desk.fill("#player-search", player.card_number)
            desk.click(f"[data-player-id='{player.pk}']")
            desk.click("#pay-button")
            desk.wait_for_url("**/register/?done=*")

        # Five registered, six needed: the start is shown greyed out with the reason (TRN-1).
        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        start = floor_page.get_by_role("button", name="Start the clock", exact=True)
        assert start.is_disabled()
        assert "Only 5 players are registered; this tournament needs at least 6" in floor_page.inner_text(
            ".clock-controls"
        )
        assert "TRN-1" not in floor_page.inner_text("main")
        screenshot(floor_page, "late-seating-dashboard-short-1280")
        register_at_the_desk(players[5])

        # The seats drawn before the clock: a seat's panel offers no Bust that would be refused.
        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        floor_page.get_by_role("button", name="Draw seats", exact=True).click()
        floor_page.wait_for_selector("text=Seats drawn.")
        assert floor_page.locator(".seat.taken").count() == 6
        assert floor_page.locator("button:has-text('Final table draw')").count() == 0
        first = Entry.objects.filter(tournament=tournament).order_by("seat").first()
        floor_page.click(f"[data-seat='1-{first.seat}']")
        floor_page.wait_for_selector("#seat-panel.open")
        bust = floor_page.locator("#seat-panel button:has-text('Bust')")
        assert bust.count() == 1 and bust.is_disabled()
        assert "Bust-outs are recorded while the tournament runs." in floor_page.inner_text("#seat-panel")
        assert "TRN-10" not in floor_page.inner_text("main")
        screenshot(floor_page, "late-seating-before-clock-1280")

        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        floor_page.get_by_role("button", name="Start the clock", exact=True).click()
        floor_page.wait_for_selector("text=The clock is running.")
        assert floor_page.get_by_role("button", name="Previous level", exact=True).is_disabled()

        # Late entries take the free seats at table 1; the tenth finds none and opens table 2.
        for player in players[6:9]:
            register_at_the_desk(player)
            assert tournament.tables.count() == 1 and not MoveSlip.objects.exists()
        register_at_the_desk(players[9])
        assert "Table 2" in desk.inner_text("#done-receipt")
        assert waiting_slips(tournament).count() == 4

        floor_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        assert floor_page.locator(".floor-table").count() == 2
        assert "4 players to move" in floor_page.inner_text(".moves")
        screenshot(floor_page, "late-seating-after-late-entries-1280")

        # A bust at table 1, from a player who is not moving: the panel says what it will do.
        moving = set(waiting_slips(tournament).values_list("entry_id", flat=True))
        out = (
            Entry.objects.filter(tournament=tournament, status="active", table__number=1)
            .exclude(pk__in=moving)
            .order_by("seat")
            .first()
        )
        floor_page.click(f"[data-seat='1-{out.seat}']")
        floor_page.wait_for_selector("#seat-panel.open")
        outcome = floor_page.inner_text("#bust-outcome")
        assert outcome == (
            "After this bust-out: Table 2 breaks. 1 player moves. "
            "4 waiting moves are called off: those players stay."
        )
        screenshot(floor_page, "late-seating-bust-preview-1280")
        floor_page.locator("#seat-panel button.danger:has-text('Bust')").click()
        floor_page.wait_for_selector("text=Bust-out recorded.")
        floor_page.wait_for_selector("text=1 player to move: see the slips.")

        # One slip, for the tenth player, who sat down at table 2; the four stay where they sit.
        tenth = Entry.objects.get(tournament=tournament, player=players[9])
        slip = waiting_slips(tournament).get()
        assert (slip.entry_id, slip.from_table, slip.to_table, slip.reason) == (tenth.pk, 2, 1, "break")
        assert "1 player to move" in floor_page.inner_text(".moves")
        assert f"#{tenth.number} Donk" in floor_page.inner_text(".moves")
        assert floor_page.locator(".floor-table").count() == 1
        screenshot(floor_page, "late-seating-after-bust-1280")
        floor_page.click("button:has-text('Confirm all moves')")
        floor_page.wait_for_selector("text=Every move is confirmed.")
        assert not waiting_slips(tournament).exists()
        screenshot(floor_page, "late-seating-after-confirm-1280")

        # The same chart in Slovak, and the seat panel on a phone.
        sk_context, sk_page = new_page(browser, locale="sk-SK")
        try:
            log_in(sk_page, live_server, "floor1", PASSWORD)
            sk_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
            sk_page.click("form.lang button[value=sk]")
            sk_page.wait_for_function("() => document.documentElement.lang === 'sk'")
            seated = Entry.objects.filter(tournament=tournament, status="active").order_by("seat").first()
            sk_page.click(f"[data-seat='1-{seated.seat}']")
            sk_page.wait_for_selector("#seat-panel.open")
            assert "Po tomto vypadnutí:" in sk_page.inner_text("#seat-panel")
            screenshot(sk_page, "late-seating-panel-sk-1280")
            sk_page.set_viewport_size({"width": 390, "height": 844})
            screenshot(sk_page, "late-seating-panel-sk-390")
        finally:
            sk_context.close()
    finally:
        floor_context.close()
        desk_context.close()

    assert Entry.objects.filter(tournament=tournament).count() == 10
    assert books_problems() == []


def test_seat_draw_with_no_one_registered_is_greyed_out__TRN_9(browser, live_server, floor):
    tournament = TournamentFactory(name="Empty Monday", levels=[(25, 50, 1200)])
    context, page = new_page(browser)
    try:
        log_in(page, live_server, "floor1", PASSWORD)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        draw = page.get_by_role("button", name="Draw seats", exact=True)
        assert draw.is_disabled()
        assert "No one is registered yet." in page.inner_text(".clock-controls")
        screenshot(page, "late-seating-no-one-registered-1280")
    finally:
        context.close()
    assert not tournament.tables.exists()
