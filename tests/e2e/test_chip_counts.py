"""Browser journey: the floor enters a table's chip counts on a tablet (1024 px) at the break,
typed as staff write numbers, and the TV shows the chip leaders and the average from the counts
(issue 27, item 3; SER-2). Screenshots of both; the books agree at the end."""

import random

import pytest

from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import ChipCount, Entry
from tournaments.services.registration import entry_register, tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NICKNAMES = ["Ace", "Bee", "Cid", "Dot", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jo"]
NICKNAMES += [f"{name} II" for name in NICKNAMES]
# What the floor writes on the sheet for each seat of the first table (ten seats), in his own hand.
TYPED = ["48,500", "9 000", "31250", "22,000", "15 000", "27,750", "12,000", "8 500", "19,000", "7 250"]


def test_floor_enters_a_tables_counts_on_the_tablet_and_the_tv_shows_the_leaders__SER_2(
    browser, live_server, floor, cashier
):
    tournament = TournamentFactory(
        name="Sunday Deepstack",
        min_players=9,
        table_size=10,
        late_registration_level=0,
        levels=[(25, 50, 1200), (50, 100, 1200), (100, 200, 1200)],
    )
    shift = shift_open(actor=cashier, opening_float_cents=50_000)
    for number, nickname in enumerate(NICKNAMES):
        player = PlayerFactory(
            first_name=nickname, last_name="Novák", nickname=nickname, card_number=f"{730_000 + number}"
        )
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"e2e-count-{number}",
        )
    tournament_start(actor=floor, tournament=tournament, rng=random.Random(5))
    table = tournament.tables.order_by("number").first()
    seats = dict(
        Entry.objects.filter(table=table, status="active")
        .order_by("seat")
        .values_list("seat", "player__nickname")
    )
    assert len(seats) == 10

    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, live_server, "floor1", PASSWORD)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/seating/")
        page.locator(f"a[href$='/tables/{table.pk}/counts/']").first.click()
        page.wait_for_selector(".counts-felt")
        assert page.locator(".count-input").count() == 10
        for (seat, _nickname), typed in zip(seats.items(), TYPED, strict=True):
            page.fill(f"input[name=seat_{seat}]", typed)
        screenshot(page, "chip-counts-entry-1024-typed")
        page.click("button:has-text('Record the counts')")
        page.wait_for_selector("text=10 counts recorded.")
        screenshot(page, "chip-counts-entry-1024-recorded")
        assert sorted(ChipCount.objects.values_list("count", flat=True)) == sorted(
            [48_500, 9_000, 31_250, 22_000, 15_000, 27_750, 12_000, 8_500, 19_000, 7_250]
        )

        tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
        tv.goto(f"{live_server.url}/tv/{tournament.pk}/?lang=en")
        tv.wait_for_function("document.querySelectorAll('[data-leaders] li').length === 5")
        leaders = tv.locator("[data-leaders] li .tv-name").all_text_contents()
        by_count = dict(zip(TYPED, seats.values(), strict=True))
        assert leaders == [by_count[text] for text in ["48,500", "31250", "27,750", "22,000", "19,000"]]
        # 200,250 chips over the ten players counted.
        assert tv.locator("[data-field=average_stack]").first.text_content() == "20,025"
        assert tv.locator("[data-field=average_note]").first.text_content().startswith("from counts at ")
        screenshot(tv, "chip-counts-tv-1920")
        tv.context.close()

        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sk-SK").new_page()
        phone.goto(f"{live_server.url}/room/tournaments/{tournament.pk}/?lang=sk&find={seats[min(seats)]}")
        assert phone.locator(".lobby-chip-counts tbody tr").count() == 10
        assert "Váš posledný počet:" in phone.locator(".lobby-answer").text_content()
        screenshot(phone, "chip-counts-phone-390-sk")
        phone.context.close()
    finally:
        context.close()
    assert books_problems() == []
