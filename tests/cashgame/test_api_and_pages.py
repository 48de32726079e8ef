import pytest

from cashgame.models import Hand, PlayerSession, SeatState, WaitingEntry
from cashgame.services.hands import hand_start
from cashgame.services.waiting import waiting_add, waiting_call_next
from cashier.models import CashierTransaction
from tests.cashgame.conftest import at, key, make_table, seat_players
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_dealer_logs_a_hand_through_the_api__RAK_1_RAK_3(api, cashier, floor, shift, table12):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)
    client = api(floor)
    started = client.post(
        f"/api/cashgame/tables/{table12.pk}/hands/", {"seats": [1, 2, 3, 4], "button_seat": 1}
    )
    assert started.status_code == 201, started.json()
    hand_id = started.json()["id"]
    assert started.json()["dealt_in"][0][0] == 1
    assert client.post(f"/api/cashgame/hands/{hand_id}/flop/").json()["saw_flop"] is True
    ended = client.post(f"/api/cashgame/hands/{hand_id}/end/", {"pot_cents": 22_000})
    assert ended.status_code == 200
    assert (ended.json()["status"], ended.json()["rake_cents"], ended.json()["jackpot_drop_cents"]) == (
        "ended",
        500,
        100,
    )
    again = client.post(f"/api/cashgame/hands/{hand_id}/end/", {"pot_cents": 22_000})
    assert again.status_code == 409
    assert again.json() == {
        "code": "hand_already_ended",
        "detail": "Hand 1 is ended already; nothing was changed.",
        "rule": "RAK-1",
    }


def test_hand_taps_on_unknown_ids_are_404(api, floor):
    huge = 38259693895762988722217015889100800  # found by the API fuzz test: beyond any column
    client = api(floor)
    # An id no column could hold is no address at all (cardroom.converters); a plausible one is
    # looked for and not found.
    for table_id, code in ((987_654, "unknown_table"), (huge, "not_found")):
        response = client.post(f"/api/cashgame/tables/{table_id}/hands/", {"seats": [1, 2]})
        assert (response.status_code, response.json()["code"]) == (404, code)
    for hand_id, code in ((987_654, "unknown_hand"), (huge, "not_found")):
        for tap, body in (("flop", {}), ("end", {"pot_cents": 1_000})):
            response = client.post(f"/api/cashgame/hands/{hand_id}/{tap}/", body)
            assert (response.status_code, response.json()["code"]) == (404, code)
    assert Hand.objects.count() == 0


def test_cashier_buy_in_api_replays_its_key__CSH_1_CAG_2(api, cashier, shift, table12):
    player = PlayerFactory()
    body = {"shift": shift.pk, "table": table12.pk, "player": player.pk, "seat": 2, "amount_cents": 10_000}
    first = api(cashier).post("/api/cashgame/sessions/buy-in/", body, HTTP_IDEMPOTENCY_KEY="api-buyin-0001")
    again = api(cashier).post("/api/cashgame/sessions/buy-in/", body, HTTP_IDEMPOTENCY_KEY="api-buyin-0001")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    assert first.json()["state"] == "waiting_for_button"
    assert CashierTransaction.objects.count() == 1


def test_buy_in_below_minimum_via_api_names_the_rule__CSH_1(api, cashier, shift, table12):
    body = {
        "shift": shift.pk,
        "table": table12.pk,
        "player": PlayerFactory().pk,
        "seat": 2,
        "amount_cents": 5_000,
    }
    response = api(cashier).post(
        "/api/cashgame/sessions/buy-in/", body, HTTP_IDEMPOTENCY_KEY="api-buyin-0002"
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["rule"]) == ("buy_in_below_minimum", "CSH-1")
    assert not PlayerSession.objects.exists()


def test_floor_cannot_sell_chips_through_the_api__ROL_1(api, floor, shift, table12):
    body = {
        "shift": shift.pk,
        "table": table12.pk,
        "player": PlayerFactory().pk,
        "seat": 2,
        "amount_cents": 10_000,
    }
    assert api(floor).post("/api/cashgame/sessions/buy-in/", body).status_code == 403
    assert api(None).get("/api/cashgame/tables/").status_code in (401, 403)


def test_top_up_during_a_hand_via_api_is_refused__CSH_3(api, cashier, floor, shift, table12):
    sessions = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    hand_start(actor=floor, table=table12, seats=[1, 2], now=at(5))
    response = api(cashier).post(
        f"/api/cashgame/sessions/{sessions[0].pk}/top-up/",
        {"shift": shift.pk, "amount_cents": 5_000, "chips_on_table_cents": 9_000, "idempotency_key": key()},
    )
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["rule"]) == ("hand_in_progress", "CSH-3")
    assert CashierTransaction.objects.count() == 2


def test_partial_cash_out_via_api_is_refused__CSH_2(api, cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    response = api(cashier).post(
        f"/api/cashgame/sessions/{session.pk}/cash-out/",
        {"shift": shift.pk, "amount_cents": 4_000, "leaving": False, "idempotency_key": key()},
    )
    assert (response.status_code, response.json()["rule"]) == (400, "CSH-2")


def test_seat_state_taps_through_the_api__CSH_6(api, cashier, floor, shift, table12):
    (session,) = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=1)
    client = api(floor)
    assert (
        client.post(f"/api/cashgame/sessions/{session.pk}/state/", {"action": "sit_out"}).status_code == 200
    )
    assert (
        client.post(f"/api/cashgame/sessions/{session.pk}/state/", {"action": "missed_blinds"}).status_code
        == 200
    )
    refused = client.post(f"/api/cashgame/sessions/{session.pk}/state/", {"action": "back"})
    assert (refused.status_code, refused.json()["rule"]) == (409, "CSH-6")
    assert PlayerSession.objects.get(pk=session.pk).state == SeatState.OWES_BLINDS


CENTS_MESSAGE = "Give the amount in whole cents as a number, e.g. 150000 for 1,500.00 EUR."


@pytest.mark.parametrize("typed", ["200.00", 20_000.0, True, -1, 10**12 + 1])
def test_cash_game_amounts_are_read_by_the_one_cents_field__CAG_5(
    api, cashier, manager, shift, table12, game12, typed
):
    """Money is integer cents in `*_cents` across the API, read by cardroom.api.CentsField: the
    cash game's buy-in, drop count and game settings refuse what the cage refuses."""
    player = PlayerFactory()
    buy_in = api(cashier).post(
        "/api/cashgame/sessions/buy-in/",
        {"shift": shift.pk, "table": table12.pk, "player": player.pk, "seat": 1, "amount_cents": typed},
    )
    drop = api(cashier).post(
        "/api/cashgame/drop-counts/",
        {
            "table": table12.pk,
            "period_start": "2026-11-10T18:00:00+01:00",
            "period_end": "2026-11-10T23:00:00+01:00",
            "counted_cents": typed,
        },
    )
    game = api(manager).patch(f"/api/cashgame/games/{game12.pk}/", {"min_buy_in_cents": typed})
    for response, field in ((buy_in, "amount_cents"), (drop, "counted_cents"), (game, "min_buy_in_cents")):
        assert response.status_code == 400, response.json()
        message = response.json()["detail"][field][0]
        assert message == CENTS_MESSAGE or message.startswith("Ensure this value is"), message
        # The rule is in the body, not pasted into the sentence.
        assert response.json()["rule"] == ("CAG-5" if message == CENTS_MESSAGE else "")
    assert not CashierTransaction.objects.exists() and not PlayerSession.objects.exists()
    assert game12.min_buy_in_cents == type(game12).objects.get(pk=game12.pk).min_buy_in_cents


def test_table_list_api_has_constant_queries(api, floor, game12, django_assert_num_queries):
    for number in range(1, 6):
        make_table(game12, number=number)
    client = api(floor)
    client.get("/api/cashgame/tables/")  # warm the user's roles
    with django_assert_num_queries(2):  # the page's count, and the page
        response = client.get("/api/cashgame/tables/")
    assert [table["number"] for table in response.json()["results"]] == [1, 2, 3, 4, 5]


def test_side_pot_worked_examples_through_the_api__POT_1(api, floor):
    first = api(floor).post(
        "/api/cashgame/calculators/side-pots/",
        {
            "players": [
                {"name": "A", "amount_cents": 20},
                {"name": "B", "amount_cents": 5},
                {"name": "C", "amount_cents": 20},
            ]
        },
        format="json",
    )
    assert [(pot["amount_cents"], pot["eligible"]) for pot in first.json()["pots"]] == [
        (15, ["A", "B", "C"]),
        (30, ["A", "C"]),
    ]
    second = api(floor).post(
        "/api/cashgame/calculators/side-pots/",
        {
            "players": [
                {"name": "A", "amount_cents": 50},
                {"name": "B", "amount_cents": 100},
                {"name": "C", "amount_cents": 100},
                {"name": "D", "amount_cents": 0, "folded": True},
            ]
        },
        format="json",
    )
    assert [(pot["amount_cents"], pot["eligible"]) for pot in second.json()["pots"]] == [
        (150, ["A", "B", "C"]),
        (100, ["B", "C"]),
    ]


def test_odd_chip_goes_left_of_the_button__POT_2(api, floor):
    response = api(floor).post(
        "/api/cashgame/calculators/side-pots/",
        {
            "players": [
                {"name": "A", "amount_cents": 5},
                {"name": "B", "amount_cents": 5},
                {"name": "C", "amount_cents": 5},
            ],
            "ranking": [["B", "C"], ["A"]],
        },
        format="json",
    )
    assert response.json()["awards_cents"] == {"A": 0, "B": 8, "C": 7}


def test_other_calculators_through_the_api__POT_3_HND_1_BET_3(api, floor):
    client = api(floor)
    order = client.post(
        "/api/cashgame/calculators/showdown/",
        {"players": ["A", "B", "C"], "last_aggressor": "B"},
        format="json",
    )
    assert order.json() == {"order": ["B", "C", "A"]}
    best = client.post(
        "/api/cashgame/calculators/best-hand/", {"hole": "AsKs", "board": "QsJsTs2d3c"}, format="json"
    )
    assert best.json()["category"] == "Royal flush"
    limits = client.post(
        "/api/cashgame/calculators/raise/",
        {
            "limit": "no_limit",
            "street": 1,
            "big_blind": 2,
            "pot": 10,
            "actions": [{"had": 0, "to": 10}, {"had": 0, "to": 13}],
            "player_bet": 10,
            "player_stack": 100,
            "bet_faced_when_acted": 10,
        },
        format="json",
    )
    assert limits.json() == {
        "current_bet": 13,
        "to_call": 3,
        "pot": 33,
        "can_raise": True,
        "min_raise_to": 23,
        "max_raise_to": 110,
        "raises": 0,
        "half_bet_rule": False,
        "reopened": False,
    }


def test_public_board_shows_no_personal_data__CSH_7(client, floor, game12, table12):
    player = PlayerFactory(first_name="Zuzana", last_name="Kováč", card_number="777123")
    waiting_add(actor=floor, game=game12, player=player, now=at(0))
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(1))
    page = client.get("/board/").content.decode()
    assert "Zuzana K." in page and "777123" not in page and "Kováč" not in page
    rows = client.get("/board/rows/")
    assert rows.status_code == 200 and rows["Cache-Control"] == "no-cache"
    board = client.get("/api/cashgame/board/").json()["results"]
    assert board[0]["entries"][0]["name"] == "Zuzana K."
    assert board[0]["entries"][0]["status"] == "called"


@pytest.mark.parametrize(
    ("user", "url", "status"),
    [
        ("floor", "/cashgame/", 200),
        ("floor", "/cashgame/tables/{table}/", 200),
        ("floor", "/cashgame/tables/{table}/dealer/", 200),
        ("floor", "/cashgame/waiting/", 200),
        ("floor", "/cashgame/jackpot/", 200),
        ("floor", "/cashgame/rulings/", 200),
        ("floor", "/cashgame/calculators/?calc=pots&players=A+20%0D%0AB+5%0D%0AC+20&chip=1", 200),
        ("cashier", "/cashgame/desk/", 200),
        ("cashier", "/cashgame/drop-counts/", 200),
        ("manager", "/cashgame/games/", 200),
        ("manager", "/cashgame/games/new/", 200),
        ("floor", "/cashgame/games/", 403),
        ("cashier", "/cashgame/tables/{table}/dealer/", 403),
        ("floor", "/cashgame/desk/", 403),
    ],
)
def test_pages_by_role__ROL_1(client, request, table12, user, url, status):
    client.force_login(request.getfixturevalue(user))
    assert client.get(url.format(table=table12.pk)).status_code == status


def test_calculator_page_shows_the_side_pots__POT_1(client, floor):
    client.force_login(floor)
    page = client.get(
        "/cashgame/calculators/?calc=pots&players=A+20%0D%0AB+5%0D%0AC+20&chip=1"
    ).content.decode()
    assert "Main pot 15.00 EUR: A, B, C" in page and "Side pot 30.00 EUR: A, C" in page


def test_dealer_tablet_one_tap_per_step(client, cashier, floor, shift, table12):
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)
    client.force_login(floor)
    base = f"/cashgame/tables/{table12.pk}/dealer/"
    assert (
        client.post(base + "start/", {"seats": ["1", "2", "3", "4"], "button_seat": "1"}).status_code == 302
    )
    assert client.post(base + "flop/").status_code == 302
    client.post(base + "end/", {"pot": "220"})
    hand = Hand.objects.get()
    assert (hand.status, hand.rake_cents, hand.jackpot_drop_cents) == ("ended", 500, 100)
    page = client.get(base).content.decode()
    assert "Hand 1 ended" in page


def test_game_edit_page_audits_the_change(client, manager, game12):
    client.force_login(manager)
    form = client.get(f"/cashgame/games/{game12.pk}/").context["form"]
    data = {**form.initial, "rake_cap": "4.00", "max_buy_in": "", "active": "on"}
    response = client.post(f"/cashgame/games/{game12.pk}/", data)
    assert response.status_code == 302, response.context["form"].errors
    game12.refresh_from_db()
    assert (game12.rake_cap_cents, game12.max_buy_in_cents) == (400, None)


def test_waiting_page_adds_and_calls(client, floor, game12, table12):
    player = PlayerFactory(card_number="555001")
    client.force_login(floor)
    client.post("/cashgame/waiting/add/", {"game": game12.pk, "player": "555001", "source": "phone"})
    client.post("/cashgame/waiting/call-next/", {"game": game12.pk, "table": table12.pk})
    entry = WaitingEntry.objects.get(player=player)
    assert (entry.source, entry.status, entry.table) == ("phone", "called", table12)
