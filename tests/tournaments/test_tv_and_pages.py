from datetime import timedelta

import pytest

from tests.tournaments.factories import T0, TournamentFactory, seat_players
from tournaments.selectors import tournament_clock_get
from tournaments.services.clock import clock_pause, clock_start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("blind_presets")]

S = timedelta(seconds=1)
LEVELS = [(25, 50, 600), (50, 100, 600), ("break", 300, "Colour up the 25 chips"), (100, 200, 900)]


def level(index, number, small, big, seconds, kind="level", note=""):
    return {
        "index": index,
        "number": number,
        "kind": kind,
        "small_blind_chips": small,
        "big_blind_chips": big,
        "ante_chips": 0,
        "big_blind_ante": False,
        "duration_ms": seconds * 1000,
        "note": note,
    }


ALL = [
    level(0, 1, 25, 50, 600),
    level(1, 2, 50, 100, 600),
    level(2, None, 0, 0, 300, kind="break", note="Colour up the 25 chips"),
    level(3, 3, 100, 200, 900),
]


def test_tv_state_exact_values__TRN_8(floor):
    tournament = TournamentFactory(
        name="Friday", levels=LEVELS, guarantee_mode="conditional", guarantee_cents=200_000
    )
    tournament = clock_start(actor=floor, tournament=tournament, now=T0)
    now = T0 + timedelta(seconds=100, milliseconds=400)
    assert tournament_clock_get(tournament=tournament, now=now) == {
        "id": tournament.pk,
        "name": "Friday",
        "status": "running",
        "status_label": "Running",
        "counting": True,
        "server_now": "2026-03-06T18:01:40.400000+00:00",
        "clock_version": 1,
        "start_at": "2026-03-06T18:00:00+00:00",
        "level_ends_at": "2026-03-06T18:10:00+00:00",
        "remaining_ms": 499_600,
        "next_break_in_ms": 1_099_600,
        "level": ALL[0],
        "next_level": ALL[1],
        "levels": ALL,
        "starting_stack_chips": 20_000,
        "guarantee": {
            "amount_cents": 200_000,
            "mode": "conditional",
            "player_count": 15,
            "deadline_level": 3,
        },
    }


def test_tv_state_rolls_forward_before_the_worker__TRN_8(floor):
    tournament = TournamentFactory(levels=LEVELS)
    tournament = clock_start(actor=floor, tournament=tournament, now=T0)
    state = tournament_clock_get(tournament=tournament, now=T0 + 1250 * S)
    assert (state["status"], state["level"], state["remaining_ms"], state["next_break_in_ms"]) == (
        "on_break",
        ALL[2],
        250_000,
        None,
    )
    assert state["level_ends_at"] == "2026-03-06T18:25:00+00:00"
    assert "guarantee" not in state
    assert "entries" not in state and "prize_pool_cents" not in state


def test_tv_state_paused__TRN_8(floor):
    tournament = TournamentFactory(levels=LEVELS)
    tournament = clock_start(actor=floor, tournament=tournament, now=T0)
    tournament = clock_pause(actor=floor, tournament=tournament, now=T0 + 60 * S)
    state = tournament_clock_get(tournament=tournament, now=T0 + 3600 * S)
    assert (state["status"], state["counting"], state["remaining_ms"], state["level_ends_at"]) == (
        "paused",
        False,
        540_000,
        None,
    )
    assert state["next_break_in_ms"] == 1_140_000
    assert state["clock_version"] == 2


def test_tv_state_before_start_shows_level_one():
    tournament = TournamentFactory(levels=LEVELS)
    state = tournament_clock_get(tournament=tournament, now=T0)
    assert (state["status"], state["counting"], state["remaining_ms"], state["level"]) == (
        "registering",
        False,
        600_000,
        ALL[0],
    )


def test_tv_pages_are_public_and_read_only(client):
    tournament = TournamentFactory(name="Friday", levels=LEVELS)
    page = client.get(f"/tv/{tournament.pk}/")
    assert page.status_code == 200
    assert "Friday" in page.content.decode()
    assert 'id="clock-labels"' in page.content.decode()
    state = client.get(f"/tv/{tournament.pk}/state.json")
    assert state.status_code == 200
    assert state["Cache-Control"] == "no-store"
    assert state.json()["levels"] == ALL
    assert client.post(f"/tv/{tournament.pk}/state.json").status_code == 405
    assert client.get("/tv/999999/state.json").status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/",
        "/tournaments/new/",
        "/tournaments/{pk}/",
        "/tournaments/structures/",
        "/tournaments/structures/{structure}/",
        "/tournaments/structures/{structure}/export.csv",
    ],
)
def test_floor_pages_by_role__ROL_1(client, floor, manager, cashier, url):
    from tournaments.models import BlindStructure

    tournament = TournamentFactory(levels=LEVELS)
    url = url.format(pk=tournament.pk, structure=BlindStructure.objects.get(name="Regular").pk)
    assert client.get(url).status_code == 302  # anonymous: to the log-in
    for user, expected in ((floor, 200), (manager, 200), (cashier, 403)):
        client.force_login(user)
        assert client.get(url).status_code == expected


def test_dashboard_clock_controls(client, floor):
    tournament = TournamentFactory(levels=LEVELS, min_players=2)
    seat_players(tournament, 2)
    client.force_login(floor)
    response = client.post(f"/tournaments/{tournament.pk}/start/")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_level_index) == ("running", 0)
    client.post(f"/tournaments/{tournament.pk}/next-level/")
    client.post(f"/tournaments/{tournament.pk}/pause/")
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_level_index) == ("paused", 1)
    left = tournament.paused_remaining_ms
    assert 590_000 < left <= 600_000  # the page acts at the real time
    client.post(f"/tournaments/{tournament.pk}/add-minute/")
    tournament.refresh_from_db()
    assert tournament.paused_remaining_ms == left + 60_000
    page = client.get(f"/tournaments/{tournament.pk}/", follow=True).content.decode()
    assert "Resume" in page
    refused = client.post(f"/tournaments/{tournament.pk}/open-registration/", follow=True).content.decode()
    assert "cannot become Registering" in refused


def test_create_page_creates_tournament_in_venue_time(client, floor):
    from tournaments.models import BlindStructure, Tournament

    client.force_login(floor)
    structure = BlindStructure.objects.get(name="Turbo")
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Daily Turbo",
            "structure": structure.pk,
            "start_at": "2026-03-06T19:00",
            "prize_cents": "45.00",
            "fee_cents": "5",
            "starting_stack_chips": 15000,
            "min_players": 9,
            "table_size": 9,
            "late_registration_level": 4,
            "max_reentries": 2,
            "guarantee_mode": "none",
            "guarantee_player_count": 15,
            "guarantee_deadline_level": 3,
        },
    )
    tournament = Tournament.objects.get(name="Daily Turbo")
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.start_at == T0  # 19:00 in Bratislava is 18:00 UTC in March
    assert (tournament.prize_cents, tournament.fee_cents, tournament.bounty_cents) == (4500, 500, 0)
    assert tournament.levels.count() == structure.levels.count()


def test_api_clock_actions(api, floor, cashier):
    tournament = TournamentFactory(levels=LEVELS, min_players=3)
    seat_players(tournament, 2)
    assert api(cashier).post(f"/api/tournaments/{tournament.pk}/start/").status_code == 403
    response = api(floor).post(f"/api/tournaments/{tournament.pk}/start/")
    assert (response.status_code, response.json()["code"], response.json()["rule"]) == (
        409,
        "not_enough_players",
        "TRN-1",
    )
    seat_players(tournament, 1)
    response = api(floor).post(f"/api/tournaments/{tournament.pk}/start/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["remaining_ms"]) == ("running", 600_000)
    response = api(floor).post(
        f"/api/tournaments/{tournament.pk}/add-time/", {"seconds": -700}, format="json"
    )
    assert (response.status_code, response.json()["code"], response.json()["rule"]) == (
        409,
        "not_enough_time_left",
        "TRN-8",
    )
    response = api(floor).post(f"/api/tournaments/{tournament.pk}/next-level/")
    assert response.json()["level"]["index"] == 1
    response = api(floor).post(f"/api/tournaments/{tournament.pk}/open-registration/")
    assert (response.status_code, response.json()["code"]) == (409, "illegal_transition")


def test_demo_loader_is_idempotent(manager):
    import io

    from tournaments.demo import DEMO_NAME, load
    from tournaments.models import Tournament

    load(actor=manager, stdout=io.StringIO())
    load(actor=manager, stdout=io.StringIO())
    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert (tournament.status, tournament.structure_name, tournament.guarantee_cents) == (
        "registering",
        "Regular",
        200_000,
    )
