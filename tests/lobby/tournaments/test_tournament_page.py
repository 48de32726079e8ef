"""A tournament's public page (/room/tournaments/<pk>/, no log-in): the TV's clock (the same
state address and script), the structure, the payouts, the field; find my seat by nickname or
entry number; after the finish, the results and the deal (WTL-3: public names only)."""

import random
import re

import pytest

from screens.public import tournament_public_get
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0
from tests.tournaments.tv_setup import finished_with_deal
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db

LEVELS = [(100, 200, 1200), ("break", 600, "Colour up"), (200, 400, 1200)]


@pytest.fixture
def started(floor, make_tournament, register):
    """Five entries on one table: "Ace" (Peter Kováč), "Nits" twice (two players), Eva Kollárová
    with no nickname, and Ján Novák busted in 5th."""
    tournament = make_tournament(name="Friday Freezeout", levels=LEVELS, late_registration_level=1)
    people = [
        ("Peter", "Kováč", "Ace"),
        ("Marek", "Mráz", "Nits"),
        ("Jozef", "Nitra", "Nits"),
        ("Eva", "Kollárová", ""),
        ("Ján", "Novák", ""),
    ]
    entries = [
        register(tournament, player=PlayerFactory(first_name=first, last_name=last, nickname=nick))
        for first, last, nick in people
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(4))
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[4].pk, None)], now=T0)
    for entry in entries:
        entry.refresh_from_db()
    tournament.refresh_from_db()
    return tournament, entries


def find(tournament, query):
    return tournament_public_get(tournament=tournament, find=query, now=T0)["seat"]


def test_find_my_seat_by_nickname_ignoring_case_and_accents(started):
    tournament, entries = started
    ace = entries[0]
    assert find(tournament, "  ACE ") == {
        "found": True,
        "query": "ACE",
        "name": "Ace",
        "number": ace.number,
        "status": "active",
        "table": ace.table.number,
        "seat": ace.seat,
        "place": None,
        "chips": None,  # a count only for a Day 2 seat from a bag (SER-2)
    }
    eva = entries[3]
    answer = find(tournament, "eva k.")
    assert (answer["name"], answer["table"], answer["seat"]) == ("Eva K.", eva.table.number, eva.seat)


def test_find_my_seat_by_entry_number(started):
    tournament, entries = started
    nits = entries[2]
    answer = find(tournament, f"#{nits.number}")
    assert (answer["name"], answer["number"], answer["table"], answer["seat"]) == (
        "Nits N.",
        nits.number,
        nits.table.number,
        nits.seat,
    )


def test_find_my_seat_unknown_ambiguous_and_busted(started):
    tournament, entries = started
    assert find(tournament, "Nobody") == {"found": False, "query": "Nobody"}
    assert find(tournament, "999") == {"found": False, "query": "999"}
    assert find(tournament, "Nits") == {"found": False, "query": "Nits", "ambiguous": True}
    assert find(tournament, "") is None
    busted = find(tournament, str(entries[4].number))
    assert (busted["found"], busted["status"], busted["table"], busted["seat"]) == (
        True,
        "busted",
        None,
        None,
    )


def test_find_my_seat_never_by_full_name_or_card_number__WTL_3(started):
    tournament, entries = started
    assert find(tournament, "Peter Kováč") == {"found": False, "query": "Peter Kováč"}
    card = entries[0].player.card_number
    assert find(tournament, card) == {"found": False, "query": card}


def test_tournament_page_shows_clock_structure_field_and_the_seat_found(client, started):
    tournament, entries = started
    ace = entries[0]
    html = client.get(f"/room/tournaments/{tournament.pk}/?find=ace").content.decode()
    assert f'data-clock-url="/tv/{tournament.pk}/state.json"' in html
    assert "/static/js/clock.js" in html
    assert re.findall(r'data-level-index="(\d)"', html) == ["0", "1", "2"]
    assert "100 / 200" in html and "200 / 400" in html and "Colour up" in html
    assert f"table {ace.table.number}, seat {ace.seat}" in html
    assert 'data-field="players_left">4<' in html
    assert 'data-field="entries">5<' in html
    assert 'data-field="average_stack">25,000<' in html
    assert 'data-field="prize_pool">450.00 EUR<' in html
    unknown = client.get(f"/room/tournaments/{tournament.pk}/?find=Zed").content.decode()
    assert "No player in this tournament goes by “Zed”." in unknown


def test_tournament_page_after_the_finish_shows_results_and_the_deal__WTL_3(
    client, floor, make_tournament, register
):
    tournament, _entries = finished_with_deal(floor, register, make_tournament)
    html = client.get(f"/room/tournaments/{tournament.pk}/").content.decode()
    results = re.findall(
        r'<li><span class="tv-place">([^<]*)</span><span class="tv-name">([^<]*)</span>'
        r'<span class="tv-amount">([^<]*)</span></li>',
        html,
    )
    assert results == [
        # The results (shared places first), then the deal's shares.
        ("1–3", "Nits K.", "270.00 EUR"),
        ("1–3", "Nits M.", "112.50 EUR"),
        ("1–3", "Eva K.", "67.50 EUR"),
        ("4.", "Ivana Š.", ""),
        ("5.", "Shark", ""),
        ("", "Nits K.", "270.00 EUR"),
        ("", "Nits M.", "112.50 EUR"),
        ("", "Eva K.", "67.50 EUR"),
    ]
    assert "3 players shared 450.00 EUR" in html
    assert 'data-status="finished"' in html
    for secret in ("Kováč", "Mráz", "Kollárová", "Šimková", "Novák"):
        assert secret not in html
