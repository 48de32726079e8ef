"""A league's standings in a real browser (SER-4): the manager's league page and the room's TV
page with two pages of rows that turn by themselves; screenshots for a person to look at."""

import random
from datetime import date, timedelta

import pytest

from cardroom.roles import Role
from cashier.services import shift_open
from leagues.services import league_create, league_tournaments_set
from tests.conftest import PASSWORD, make_staff
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_register, tournament_start
from tournaments.services.tournaments import tournament_finish

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NAMES = ["Zuzka", "Marek", "Ondrej", "Lucia", "Peter", "Katka", "Jano", "Mira", "Tibor", "Eva", "Igor"]
NAMES += ["Dominika", "Rasto", "Vlado", "Soňa"]


def played(floor, cashier, shift, players, day, name, n):
    start = T0 + timedelta(days=day)
    tournament = TournamentFactory(
        name=name, start_at=start, min_players=2, late_registration_level=0, levels=[(25, 50, 1200)]
    )
    entries = [
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=p,
            shift=shift,
            idempotency_key=f"e2e-l-{day}-{i}",
            now=start,
        )
        for i, p in enumerate(players)
    ]
    tournament_start(actor=floor, tournament=tournament, now=start, rng=random.Random(n))
    for i, entry in enumerate(entries[:-1], start=1):
        entry_bust(
            actor=floor, tournament=tournament, busted=[(entry.pk, None)], now=start + timedelta(seconds=i)
        )
    tournament_finish(actor=floor, tournament=tournament, now=start + timedelta(minutes=5))
    return tournament


def test_league_tv_pages_and_manager_page__SER_4(page, live_server):
    manager = make_staff("manager1", Role.MANAGER)
    floor = make_staff("floor1", Role.FLOOR)
    cashier = make_staff("cashier1", Role.CASHIER)
    shift = shift_open(actor=cashier, opening_float_cents=100_000, now=T0)
    players = [
        PlayerFactory(
            first_name=name, last_name="Nováková" if name.endswith("a") else "Horváth", nickname=name
        )
        for name in NAMES
    ]
    rng = random.Random(4)
    tournaments = []
    for day, name in enumerate(["Utorok #1", "Utorok #2", "Utorok #3"]):
        field = players[:] if day else players[:12]
        rng.shuffle(field)
        tournaments.append(played(floor, cashier, shift, field, day, name, day))
    TournamentFactory(name="Utorok #4", start_at=T0 + timedelta(days=7), levels=[(25, 50, 1200)])
    league = league_create(
        actor=manager,
        name="Jarná liga 2026",
        season_start=date(2026, 3, 1),
        season_end=date(2026, 5, 31),
        best_n=2,
        kind="formula",
    )
    league_tournaments_set(actor=manager, league=league, tournament_ids=[t.pk for t in tournaments])

    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tv/leagues/{league.pk}/")
    assert page.locator("[data-page='1']").is_visible()
    screenshot(page, "league-tv-1920-page1")
    page.wait_for_selector("[data-page='2']:not([hidden])", timeout=15_000)
    assert page.locator("[data-page-current]").inner_text() == "2"
    screenshot(page, "league-tv-1920-page2")
    page.set_viewport_size({"width": 1080, "height": 1920})
    page.goto(f"{live_server.url}/tv/leagues/{league.pk}/?lang=sk")
    screenshot(page, "league-tv-portrait-sk")

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, live_server, "manager1", PASSWORD)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    screenshot(page, "league-manager-1280")
    page.goto(f"{live_server.url}/leagues/{league.pk}/edit/")
    page.check("input[name=kind][value=table]")
    page.fill("input[name=place_0]", "1")
    page.fill("input[name=low_0]", "2")
    page.fill("input[name=points_0]", "-5")
    page.click("button.primary.big")
    screenshot(page, "league-edit-refused-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/room/")
    page.wait_for_selector("[data-league]")
    screenshot(page, "league-room-phone")
