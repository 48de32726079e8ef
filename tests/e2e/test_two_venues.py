"""Two rooms of one operator on one night (VEN-1), in a real browser: each venue has its own cash
table, tournament, cashier and TV, open at the same time; a player excluded while the first room's
manager works is refused at the second room's cage; each venue's books agree, and so do the
operator's."""

import pytest
from django.core.management import call_command
from django.utils import timezone

from cardroom.models import Venue
from cardroom.roles import Role
from cardroom.selectors import venue_get
from cardroom.services import staff_role_grant
from cardroom.venues import venue_activate
from cashgame.services.sessions import session_seat
from cashier.models import CashierTransaction, Shift
from cashier.services import shift_open
from players.services import player_exclude
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD, make_staff
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SELL = "#action-buy-in > button[type=submit].big"
CONFIRM = "#action-buy-in .confirm-box button[type=submit]"


def desk(browser, live_server, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_server, username, PASSWORD)
    return context, page


def sell(page, live_server, card: str, player, amount: str) -> str:
    page.goto(f"{live_server.url}/cashier/")
    page.fill("#player-search", card)
    page.press("#player-search", "Enter")
    page.wait_for_url(f"**/cashier/?player={player.pk}")
    page.fill("#id_buy-in_amount", amount)
    page.click(SELL)
    if page.locator(CONFIRM).count():
        page.click(CONFIRM)
    page.wait_for_url(f"**/cashier/?player={player.pk}&done=*")
    return page.inner_text("#done")


def test_two_rooms_run_one_night_side_by_side__VEN_1(browser, live_server):
    call_command("venue_add", "Casino Two", "two", time_zone="Europe/Bratislava", verbosity=0)
    one, two = venue_get(), Venue.objects.get(slug="two")
    now = timezone.now()
    cashier_one = make_staff("cashier-one", Role.CASHIER)
    cashier_two = make_staff("cashier-two")
    staff_role_grant(user=cashier_two, role=Role.CASHIER.value, venue=two)
    manager = make_staff("group-manager", Role.MANAGER)
    staff_role_grant(user=manager, role=Role.MANAGER.value, venue=two)
    rooms = {}
    for venue, cashier, name in ((one, cashier_one, "Friday Deepstack"), (two, cashier_two, "Friday Turbo")):
        with venue_activate(venue):
            cage_stock(cashier, now=now)
            shift_open(actor=cashier, opening_float_cents=100_000, now=now)
            table = make_table(make_game(name="NLHE 2/5", small=200, big=500, min_buy_in=20_000), 1)
            tournament = TournamentFactory(name=name)
            rooms[venue.slug] = (table, tournament)
    eva = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151", id_verified_at=now)
    jan = PlayerFactory(first_name="Ján", last_name="Šťastný", card_number="424242", id_verified_at=now)
    # The floor of each room seats its player, who then comes to that room's cage.
    for venue, player in ((one, eva), (two, jan)):
        with venue_activate(venue):
            session_seat(actor=manager, table=rooms[venue.slug][0], player=player, seat=3, now=now)

    # Both cages open at once; each sells a buy-in at its own table 1, and each numbers its
    # receipts from 1.
    context_one, page_one = desk(browser, live_server, "cashier-one")
    context_two, page_two = desk(browser, live_server, "cashier-two")
    assert "Receipt 1 · Cash-game buy-in 300.00 EUR · Eva Malá" in sell(
        page_one, live_server, "515151", eva, "300"
    )
    assert "Receipt 1 · Cash-game buy-in 250.00 EUR · Ján Šťastný" in sell(
        page_two, live_server, "424242", jan, "250"
    )
    assert page_one.inner_text(".brand") == "Card Room" and page_two.inner_text(".brand") == "Casino Two"
    screenshot(page_two, "two-venues-cage-of-casino-two")

    # The first room's manager excludes Ján; at the second room's cage he is refused.
    with venue_activate(one):
        player_exclude(
            actor=manager,
            player=jan,
            status="register",
            reason="Court order",
            excluded_from=timezone.localdate(now),
        )
    page_two.goto(f"{live_server.url}/cashier/?player={jan.pk}")
    assert "Excluded by the register" in page_two.inner_text("#player-card")
    # No chips for him: the top-up is not offered, and says why.
    top_up = page_two.inner_text("#action-top-up")
    assert "Ján Šťastný is on the exclusion list and cannot buy in." in top_up
    assert page_two.locator("#action-top-up button[type=submit]:enabled").count() == 0
    assert CashierTransaction.all_venues.filter(player=jan).count() == 1
    screenshot(page_two, "two-venues-excluded-at-casino-two")

    # Each venue's TV shows its own tournament at its own address; the other's is not there.
    _table, tournament_one = rooms["room"]
    _table, tournament_two = rooms["two"]
    tv = context_one.new_page()
    tv.goto(f"{live_server.url}/v/two/tv/{tournament_two.pk}/")
    assert "Friday Turbo" in tv.inner_text("main")
    assert tv.goto(f"{live_server.url}/v/two/tv/{tournament_one.pk}/").status == 404
    tv.goto(f"{live_server.url}/v/room/tv/{tournament_one.pk}/")
    assert "Friday Deepstack" in tv.inner_text("main")

    # Tournament fees in both rooms: two entries at the first, one at the second (10.00 EUR each).
    for venue, cashier, count in ((one, cashier_one, 2), (two, cashier_two, 1)):
        with venue_activate(venue):
            shift = Shift.objects.get(cashier=cashier, status="open")
            for n in range(count):
                entry_register(
                    actor=cashier,
                    tournament=rooms[venue.slug][1],
                    player=PlayerFactory(),
                    shift=shift,
                    idempotency_key=f"two-venues-{venue.slug}-{n:04d}",
                )

    # The group's manager picks the first room, and sees both rooms' night in one report: each
    # figure the sum of the two rooms', the jackpot funds apart.
    manager_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    manager_page = manager_context.new_page()
    manager_page.set_default_timeout(10_000)
    manager_page.goto(f"{live_server.url}/login/")
    manager_page.fill("#id_username", "group-manager")
    manager_page.fill("#id_password", PASSWORD)
    manager_page.click("button[type=submit].primary")
    manager_page.wait_for_url("**/venue/pick/?next=*")
    assert manager_page.locator("button[name=venue]").all_inner_texts() == [
        "Card Room\nManager",
        "Casino Two\nManager",
    ]
    screenshot(manager_page, "two-venues-pick")
    manager_page.click(f"button[name=venue][value='{one.pk}']")
    manager_page.wait_for_url(f"{live_server.url}/")
    manager_page.goto(f"{live_server.url}/reports/")
    manager_page.click("a[href^='/reports/operator/']")
    manager_page.wait_for_url("**/reports/operator/*")
    rows = {
        row.locator("th").inner_text(): row.locator("td").all_inner_texts()
        for row in manager_page.locator("table.operator tbody tr").all()
    }
    assert rows["Tournament fees"] == ["20.00", "10.00", "30.00"]  # EUR, as the heading says
    assert rows["Prize contributions"] == ["180.00", "90.00", "270.00"]
    assert rows["Rake"] == ["0.00", "0.00", "0.00"]
    screenshot(manager_page, "two-venues-operator-report")
    manager_context.close()
    context_one.close()
    context_two.close()
    for venue in (one, two):
        with venue_activate(venue):
            assert books_problems() == []
    call_command("check_books")
