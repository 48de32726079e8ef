"""The TV clock's state (TRN-8): late registration to the exact end of its level, the average
stack and the prize pool, a deal and the results once finished (TRN-10), in the language the
screen asks for, and a pinned number of queries."""

import random
from datetime import timedelta

import pytest
from django.core.cache import cache

from screens.tv import tv_state_get
from tests.queries import hold_caches
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import T0, seat_players
from tests.tournaments.tv_setup import CLOSED, finished_with_deal
from tournaments.services.clock import clock_pause, clock_start
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)


def late(tournament, now):
    tournament.refresh_from_db()
    return tv_state_get(tournament=tournament, now=now)["late_registration"]


def test_late_registration_counts_to_the_end_of_its_level_breaks_included__TRN_6(floor, make_tournament):
    # Levels 1-3 of 10 minutes, a 5-minute break, levels 4 and 5 of 10: level 5 ends 55 minutes in.
    tournament = make_tournament(late_registration_level=5, levels=LEVELS)
    assert late(tournament, T0) == {"open": True, "level": 5, "remaining_ms": 3_300_000, "ends_at": None}
    clock_start(actor=floor, tournament=tournament, now=T0)
    assert late(tournament, T0 + 150 * S) == {
        "open": True,
        "level": 5,
        "remaining_ms": 3_150_000,
        "ends_at": (T0 + 3300 * S).isoformat(),
    }
    clock_pause(actor=floor, tournament=tournament, now=T0 + 1000 * S)  # in level 2, 200 s left
    assert late(tournament, T0 + 2000 * S) == {
        "open": True,
        "level": 5,
        "remaining_ms": 2_300_000,
        "ends_at": None,
    }


def test_late_registration_closed_after_its_level__TRN_6(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=1)
    register(tournament)
    register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    assert late(tournament, T0 + 599 * S)["remaining_ms"] == 1_000
    # Past its level before the worker closes it: still open, with no end left to count.
    assert late(tournament, T0 + 601 * S)["open"] is True
    assert late(tournament, T0 + 601 * S)["remaining_ms"] is None


def test_tv_state_average_stack_and_prize_pool__TRN_5(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=1)
    entries = [register(tournament) for _ in range(4)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[0].pk, 20_000)], now=CLOSED)
    field = tv_state_get(tournament=tournament, now=CLOSED + S)["field"]
    # 4 x 20,000 chips among 3 players; 4 x 90.00 EUR of prize money.
    assert (field["players_left"], field["average_stack_chips"], field["average_stack_text"]) == (
        3,
        26_666,
        "26,666",
    )
    assert (field["prize_pool_cents"], field["prize_pool_text"]) == (36_000, "360.00 EUR")


SHARES = [
    {"name": "Nits K.", "place": None, "amount_cents": 27_000, "amount_text": "270.00 EUR"},
    {"name": "Nits M.", "place": None, "amount_cents": 11_250, "amount_text": "112.50 EUR"},
    {"name": "Eva K.", "place": None, "amount_cents": 6_750, "amount_text": "67.50 EUR"},
]


def test_tv_state_after_a_deal_shows_the_deal_not_the_payouts_before_it__TRN_10(
    floor, make_tournament, register
):
    tournament, _entries = finished_with_deal(floor, register, make_tournament, finish=False)
    state = tv_state_get(tournament=tournament, now=CLOSED + 10 * S)
    assert state["deal"] == {
        "accepted_at": (CLOSED + 2 * S).isoformat(),
        "players": 3,
        "total_cents": 45_000,
        "total_text": "450.00 EUR",
        "shares": SHARES,
    }
    assert state["field"]["payouts"] == []  # 225.00 / 135.00 / 90.00 no longer hold
    assert (state["finished"], state["results"]) == (False, [])


def row(place, place_text, name, cents, text):
    return {"place": place, "place_text": place_text, "name": name, "prize_cents": cents, "prize_text": text}


def test_tv_state_finished_with_a_deal_lists_the_results__TRN_10(client, floor, make_tournament, register):
    tournament, _entries = finished_with_deal(floor, register, make_tournament)
    state = client.get(f"/tv/{tournament.pk}/state.json").json()
    assert (state["status"], state["finished"], state["remaining_ms"], state["counting"]) == (
        "finished",
        True,
        None,
        False,
    )
    assert state["deal"]["shares"] == SHARES
    assert state["results"] == [
        {
            "place": None,
            "place_text": "1–3",
            "name": "Nits K.",
            "prize_cents": 27_000,
            "prize_text": "270.00 EUR",
        },
        {
            "place": None,
            "place_text": "1–3",
            "name": "Nits M.",
            "prize_cents": 11_250,
            "prize_text": "112.50 EUR",
        },
        {
            "place": None,
            "place_text": "1–3",
            "name": "Eva K.",
            "prize_cents": 6_750,
            "prize_text": "67.50 EUR",
        },
        {"place": 4, "place_text": "4", "name": "Ivana Š.", "prize_cents": None, "prize_text": ""},
        {"place": 5, "place_text": "5", "name": "Shark", "prize_cents": None, "prize_text": ""},
    ]
    assert state["late_registration"] == {"open": False, "level": 1, "remaining_ms": None, "ends_at": None}
    page = client.get(f"/tv/{tournament.pk}/").content.decode()
    for secret in ("Kováč", "Mráz", "Kollárová", "Šimková", "Novák"):
        assert secret not in page and secret not in str(state)


def test_tv_state_and_page_in_slovak_whatever_the_browser_says(client, running_tournament):
    tournament, _entries = running_tournament
    state = client.get(f"/tv/{tournament.pk}/state.json?lang=sk", HTTP_ACCEPT_LANGUAGE="en").json()
    assert (state["lang"], state["status_label"], state["field"]["prize_pool_text"]) == (
        "sk",
        "Prebieha",
        "900,00 EUR",
    )
    english = client.get(f"/tv/{tournament.pk}/state.json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert (english["lang"], english["status_label"], english["field"]["prize_pool_text"]) == (
        "en",
        "Running",
        "900.00 EUR",
    )
    page = client.get(f"/tv/{tournament.pk}/?lang=sk", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="sk">' in page and "Úroveň" in page and "Prebieha" in page


def test_tv_state_refuses_an_unknown_language_and_names_it(client, running_tournament):
    tournament, _entries = running_tournament
    response = client.get(f"/tv/{tournament.pk}/state.json?lang=de")
    assert response.status_code == 400
    assert response.json() == {
        "code": "unknown_language",
        "detail": "The screen's language 'de' is not offered; use one of: en, sk.",
        "rule": "",
    }


# The tournament and its levels (2), its rules (1), the entries counted and the chips in play
# (2), the final payouts (1; no ledger read once they are final), the entries with a place or a
# prize and their players (1).
FINISHED_QUERIES = 7


def test_finished_tv_poll_queries_are_pinned_and_do_not_grow__TRN_8(
    client, floor, make_tournament, register, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, _entries = finished_with_deal(floor, register, make_tournament)
    url = f"/tv/{tournament.pk}/state.json?lang=en"
    assert client.get(url).status_code == 200  # the venue is read once
    cache.clear()  # a new reading, as the first poll of each half second makes
    with django_assert_num_queries(FINISHED_QUERIES):
        assert len(client.get(url).json()["results"]) == 5
    seat_players(tournament, 40)  # a far bigger field behind it
    cache.clear()
    with django_assert_num_queries(FINISHED_QUERIES):
        assert len(client.get(url).json()["results"]) == 5
