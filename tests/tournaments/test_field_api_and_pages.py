"""API and pages of registration, seating, bust-outs and payouts, and the TV's field figures."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cashier.models import CashierTransaction
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, seat_players
from tournaments.models import Entry
from tournaments.services.payouts import payouts_finalise
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)


def test_api_register_is_idempotent_and_cashier_only__TRN_6(api, cashier, floor, shift, make_tournament):
    tournament = make_tournament()
    player = PlayerFactory()
    url = f"/api/tournaments/{tournament.pk}/entries/"
    body = {"player": player.pk, "idempotency_key": "api-register-1"}
    assert api(floor).post(url, body, format="json").status_code == 403
    first = api(cashier).post(url, body, format="json")
    assert first.status_code == 201
    again = api(cashier).post(url, body, format="json")
    assert (again.status_code, again.json()["id"]) == (200, first.json()["id"])
    assert CashierTransaction.objects.count() == 1
    listed = api(floor).get(url).json()["results"]
    assert [(e["number"], e["player_name"], e["kind"], e["status"], e["present"]) for e in listed] == [
        (1, player.full_name, "buy_in", "active", True)
    ]


def test_api_register_without_shift_refused__CAG_3(api, cashier, make_tournament):
    tournament = make_tournament()
    response = api(cashier).post(
        f"/api/tournaments/{tournament.pk}/entries/",
        {"player": PlayerFactory().pk, "idempotency_key": "api-register-2"},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (409, "no_open_shift")
    assert not Entry.objects.exists()


def test_api_bust_payout_and_prize_paid_once__TRN_10(api, cashier, floor, shift, register, make_tournament):
    tournament = make_tournament(late_registration_level=0)
    entries = [register(tournament) for _ in range(3)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    bust = f"/api/tournaments/{tournament.pk}/bust/"
    response = api(floor).post(
        bust,
        {
            "busted": [
                {"entry": entries[0].pk, "stack_chips": 500},
                {"entry": entries[1].pk, "stack_chips": 900},
            ]
        },
        format="json",
    )
    assert response.status_code == 200
    assert sorted((e["number"], e["finish_place"]) for e in response.json()) == [(1, 3), (2, 2)]
    again = api(floor).post(bust, {"busted": [{"entry": entries[0].pk, "stack_chips": 500}]}, format="json")
    assert (again.status_code, again.json()["code"], again.json()["rule"]) == (
        409,
        "already_busted",
        "TRN-10",
    )
    winner = Entry.objects.get(pk=entries[2].pk)
    assert (winner.finish_place, winner.prize_cents) == (1, 27_000)  # 3 entries pay one place
    prize = f"/api/tournaments/{tournament.pk}/entries/{winner.pk}/prize/"
    assert api(cashier).post(prize, {"idempotency_key": "api-prize-1"}, format="json").json()["prize_paid"]
    twice = api(cashier).post(prize, {"idempotency_key": "api-prize-2"}, format="json")
    assert (twice.status_code, twice.json()["code"], twice.json()["rule"]) == (
        409,
        "prize_already_paid",
        "TRN-10",
    )
    assert CashierTransaction.objects.filter(kind="prize_payout").count() == 1


def test_api_deal_calculators__TRN_10(api, floor, register, make_tournament):
    tournament = make_tournament(late_registration_level=0)
    entries = [register(tournament) for _ in range(4)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    api(floor).put(
        f"/api/tournaments/{tournament.pk}/payouts/", {"percentages": [6_000, 4_000]}, format="json"
    )
    payouts_finalise(actor=floor, tournament=tournament, now=T0 + S)
    api(floor).post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {"busted": [{"entry": entries[0].pk, "stack_chips": 1}, {"entry": entries[1].pk, "stack_chips": 2}]},
        format="json",
    )
    url = f"/api/tournaments/{tournament.pk}/deal/calculate/"
    stacks = [
        {"entry": entries[2].pk, "stack_chips": 60_000},
        {"entry": entries[3].pk, "stack_chips": 20_000},
    ]
    icm = api(floor).post(url, {"method": "icm", "stacks": stacks}, format="json").json()
    # Prizes 216.00 and 144.00; heads-up ICM: 3/4 x 216 + 1/4 x 144 = 198.00, and 162.00.
    assert icm == [
        {"entry": entries[2].pk, "amount_cents": 19_800},
        {"entry": entries[3].pk, "amount_cents": 16_200},
    ]
    chop = api(floor).post(url, {"method": "chip_chop", "stacks": stacks}, format="json").json()
    assert chop == [
        {"entry": entries[2].pk, "amount_cents": 27_000},
        {"entry": entries[3].pk, "amount_cents": 9_000},
    ]
    accepted = api(floor).post(
        f"/api/tournaments/{tournament.pk}/deal/accept/",
        {"method": "icm", "shares": icm, "stacks": stacks},
        format="json",
    )
    assert accepted.status_code == 200
    assert list(
        Entry.objects.filter(status="active").order_by("pk").values_list("prize_cents", flat=True)
    ) == [
        19_800,
        16_200,
    ]


def test_tv_state_has_the_field__TRN_3_TRN_5(client, floor, register, make_tournament):
    tournament = make_tournament(
        guarantee_mode="conditional",
        guarantee_cents=50_000,
        guarantee_player_count=3,
        late_registration_level=5,
    )
    for _ in range(3):
        register(tournament)
    register(tournament, present=False)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    field = client.get(f"/tv/{tournament.pk}/state.json").json()["field"]
    assert field == {
        "entries": 4,
        "players_left": 4,
        "chips_in_play": 80_000,
        "average_stack_chips": 20_000,
        "average_stack_text": "20,000",
        "prize_pool_cents": 36_000,  # not decided yet: what was collected
        "prize_pool_text": "360.00 EUR",
        "payouts_final": False,
        "payouts": [{"place": 1, "amount_cents": 36_000, "amount_text": "360.00 EUR"}],
        "registration_open": True,
        "guarantee": {
            "amount_cents": 50_000,
            "amount_text": "500.00 EUR",
            "mode": "conditional",
            "outcome": "undecided",
            "outcome_label": "Not decided yet",
            "present_players": None,
            "required_players": 3,
            "deadline_level": 3,
            "overlay_cents": 0,
        },
    }
    page = client.get(f"/tv/{tournament.pk}/").content.decode()
    assert 'data-field="players_left"' in page and 'data-field="prize_pool"' in page
    client.force_login(floor)
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "<dd>20,000</dd>" in dashboard  # the average stack, as every chip count is written


def test_entries_api_queries_do_not_grow(api, floor, make_tournament):
    tournament = make_tournament()
    seat_players(tournament, 3)
    client = api(floor)
    url = f"/api/tournaments/{tournament.pk}/entries/"
    client.get(url)  # the user's roles are read once and cached
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    seat_players(tournament, 12)
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(url).json()["results"]) == 15
    assert len(many) == len(few)


@pytest.mark.parametrize("page", ["entries", "seating", "bust", "payouts"])
def test_floor_pages_by_role__ROL_1(client, floor, cashier, make_tournament, page):
    tournament = make_tournament(min_players=2)
    seat_players(tournament, 3)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    client.force_login(floor)
    response = client.get(f"/tournaments/{tournament.pk}/{page}/")
    assert response.status_code == 200
    client.force_login(cashier)
    assert client.get(f"/tournaments/{tournament.pk}/{page}/").status_code == (
        200 if page == "entries" else 403
    )


def test_register_page_for_cashier(client, cashier, floor, shift, make_tournament):
    tournament = make_tournament()
    player = PlayerFactory()
    client.force_login(floor)
    assert client.get(f"/tournaments/{tournament.pk}/register/").status_code == 403
    client.force_login(cashier)
    assert client.get("/tournaments/cashier/").status_code == 200
    assert client.get(f"/tournaments/{tournament.pk}/register/").status_code == 200
    data = {"player": player.pk, "method": "cash", "present": "on", "idempotency_key": "page-register-1"}
    response = client.post(f"/tournaments/{tournament.pk}/register/", data)
    assert response.status_code == 302
    client.post(f"/tournaments/{tournament.pk}/register/", data)  # a double tap registers once
    assert list(Entry.objects.values_list("player_id", "present")) == [(player.pk, True)]


def test_bust_page_records_same_hand(client, floor, make_tournament):
    tournament = make_tournament(min_players=2, late_registration_level=0)
    entries = seat_players(tournament, 4)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    client.force_login(floor)
    client.post(
        f"/tournaments/{tournament.pk}/bust/",
        {
            "entry": [entries[0].pk, entries[1].pk],
            f"stack_{entries[0].pk}": "100",
            f"stack_{entries[1].pk}": "300",
        },
    )
    assert list(
        Entry.objects.filter(status="busted").order_by("finish_place").values_list("pk", "finish_place")
    ) == [
        (entries[1].pk, 3),
        (entries[0].pk, 4),
    ]
    client.post(f"/tournaments/{tournament.pk}/bust/undo/")
    assert Entry.objects.filter(status="active").count() == 4


def test_payouts_page_deal_and_cashier_prizes_due__TRN_10(
    client, floor, cashier, shift, register, make_tournament
):
    tournament = make_tournament(min_players=2, late_registration_level=0)
    entries = [register(tournament) for _ in range(4)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    client.force_login(floor)
    client.post(f"/tournaments/{tournament.pk}/payouts/", {"percentages": "60, 40"})
    client.post(f"/tournaments/{tournament.pk}/payouts/finalise/")
    stacks = {f"stack_{entries[0].pk}": "1", f"stack_{entries[1].pk}": "2"}
    client.post(f"/tournaments/{tournament.pk}/bust/", {"entry": [entries[0].pk, entries[1].pk], **stacks})
    # 80,000 chips are in play: stacks that add up to less are refused with the difference.
    query = {"method": "chip_chop", f"stack_{entries[2].pk}": "30000", f"stack_{entries[3].pk}": "10000"}
    page = client.get(f"/tournaments/{tournament.pk}/payouts/", query).content.decode()
    assert "40000 chips but 80000 chips are in play: 40000 chips missing" in page
    assert "Accept deal" not in page
    # 360.00 EUR left, chopped 3:1.
    query = {"method": "chip_chop", f"stack_{entries[2].pk}": "60000", f"stack_{entries[3].pk}": "20000"}
    page = client.get(f"/tournaments/{tournament.pk}/payouts/", query).content.decode()
    assert "Accept deal" in page and "seating" in page and "270.00" in page
    shares = {f"share_{entries[2].pk}": "27000", f"share_{entries[3].pk}": "9000"}
    client.post(
        f"/tournaments/{tournament.pk}/deal/accept/",
        {
            "method": "chip_chop",
            **shares,
            f"stack_{entries[2].pk}": "60000",
            f"stack_{entries[3].pk}": "20000",
        },
    )
    assert list(
        Entry.objects.filter(status="active").order_by("pk").values_list("prize_cents", flat=True)
    ) == [27_000, 9_000]
    assert client.get(f"/tournaments/{tournament.pk}/seating/").status_code == 200
    client.force_login(cashier)
    page = client.get(f"/tournaments/{tournament.pk}/register/").content.decode()
    assert "Registration is closed" in page


def test_cashier_pays_prize_from_page_with_receipt__TRN_10(
    client, floor, cashier, shift, register, make_tournament
):
    tournament = make_tournament(late_registration_level=0)
    loser, winner = register(tournament), register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    client.force_login(floor)
    client.post(f"/tournaments/{tournament.pk}/bust/", {"entry": [loser.pk], f"stack_{loser.pk}": "500"})
    client.force_login(cashier)
    page = client.get(f"/tournaments/{tournament.pk}/register/").content.decode()
    assert "Prizes due" in page and "180.00" in page
    url = f"/tournaments/{tournament.pk}/entries/{winner.pk}/prize/"
    response = client.post(url, {"idempotency_key": "page-prize-0001"})
    record = CashierTransaction.objects.get(kind="prize_payout")
    assert (response["Location"], record.amount_cents) == (f"/cashier/receipts/{record.pk}/", 18_000)
    again = client.post(url, {"idempotency_key": "page-prize-0002"}, follow=True).content.decode()
    assert "already paid" in again
    assert CashierTransaction.objects.filter(kind="prize_payout").count() == 1
