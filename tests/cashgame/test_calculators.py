"""The floor's calculators through the API and the page: the raise calculator's BET-3 rule (from
the game or an explicit flag), side pots with dead money (POT-4) and each pot's rake and jackpot
drop share (RAK-6)."""

import pytest

from cardroom.models import AuditRecord
from cashgame.models import Game
from tests.cashgame.conftest import make_game

pytestmark = pytest.mark.django_db

RAISE = "/api/cashgame/calculators/raise/"
# A bets 100 on the flop, B is all-in to 150 (half a full raise); A already acted facing 100.
HALF_RAISE_ALL_IN = {
    "limit": "no_limit",
    "street": 1,
    "big_blind": 20,
    "pot": 300,
    "actions": [{"had": 0, "to": 100}, {"had": 0, "to": 150}],
    "player_bet": 100,
    "player_stack": 1_000,
    "bet_faced_when_acted": 100,
}
AFTER_HALF_RAISE = {
    "current_bet": 150,
    "to_call": 50,
    "pot": 550,
    "can_raise": True,
    "min_raise_to": 250,
    "max_raise_to": 1_100,
    "raises": 0,
}


@pytest.fixture
def half_bet_game(db):
    return make_game(name="NLHE 1/2 half-bet", half_bet_rule=True)


def test_raise_calculator_full_bet_rule_by_default__BET_3(api, floor):
    response = api(floor).post(RAISE, HALF_RAISE_ALL_IN)
    assert response.status_code == 200, response.json()
    assert response.json() == {**AFTER_HALF_RAISE, "half_bet_rule": False, "reopened": False}


def test_raise_calculator_takes_the_games_half_bet_rule__BET_3(api, floor, half_bet_game, game12):
    client = api(floor)
    half = client.post(RAISE, {**HALF_RAISE_ALL_IN, "game": half_bet_game.pk})
    assert half.json() == {**AFTER_HALF_RAISE, "half_bet_rule": True, "reopened": True}
    full = client.post(RAISE, {**HALF_RAISE_ALL_IN, "game": game12.pk})
    assert full.json() == {**AFTER_HALF_RAISE, "half_bet_rule": False, "reopened": False}


def test_raise_calculator_explicit_flag_overrides_the_game__BET_3(api, floor, half_bet_game, game12):
    client = api(floor)
    full = client.post(RAISE, {**HALF_RAISE_ALL_IN, "game": half_bet_game.pk, "half_bet_rule": False})
    assert full.json() == {**AFTER_HALF_RAISE, "half_bet_rule": False, "reopened": False}
    half = client.post(RAISE, {**HALF_RAISE_ALL_IN, "half_bet_rule": True})
    assert half.json() == {**AFTER_HALF_RAISE, "half_bet_rule": True, "reopened": True}
    # 149 is less than half a raise: no rule reopens the betting.
    short = {**HALF_RAISE_ALL_IN, "actions": [{"had": 0, "to": 100}, {"had": 0, "to": 149}]}
    assert client.post(RAISE, {**short, "half_bet_rule": True}).json()["reopened"] is False


def test_raise_calculator_refuses_a_bad_game_or_flag__BET_3(api, floor):
    client = api(floor)
    unknown = client.post(RAISE, {**HALF_RAISE_ALL_IN, "game": 987_654})
    assert (unknown.status_code, list(unknown.json()["detail"])) == (400, ["game"])
    typo = client.post(RAISE, {**HALF_RAISE_ALL_IN, "half_bet_rule": "yes"})
    assert (typo.status_code, list(typo.json()["detail"])) == (400, ["half_bet_rule"])


def raise_page(client, **extra) -> str:
    query = {
        "calc": "raise",
        "limit": "no_limit",
        "street": "1",
        "small_blind": "10",
        "big_blind": "20",
        "pot": "300",
        "actions": "100 150",
        "player_bet": "100",
        "player_stack": "1000",
        "bet_faced_when_acted": "100",
        **extra,
    }
    return client.get("/cashgame/calculators/", query).content.decode()


def test_raise_page_full_and_half_bet_rule__BET_3(client, floor, half_bet_game):
    client.force_login(floor)
    assert "Not reopened: the player may only call or fold." in raise_page(client)
    assert "The betting is reopened for the player." in raise_page(client, game=str(half_bet_game.pk))
    page = raise_page(client, game=str(half_bet_game.pk), half_bet_rule="full")
    assert "Not reopened: the player may only call or fold." in page
    assert "The betting is reopened for the player." in raise_page(client, half_bet_rule="half")


def test_game_api_switches_the_half_bet_rule__BET_3(api, manager, floor, game12):
    refused = api(floor).patch(f"/api/cashgame/games/{game12.pk}/", {"half_bet_rule": True})
    assert refused.status_code == 403
    response = api(manager).patch(f"/api/cashgame/games/{game12.pk}/", {"half_bet_rule": True})
    assert (response.status_code, response.json()["half_bet_rule"]) == (200, True)
    assert Game.objects.get(pk=game12.pk).half_bet_rule is True
    record = AuditRecord.objects.get(action="cashgame.game_update")
    assert (record.before["half_bet_rule"], record.after["half_bet_rule"]) == (False, True)


def test_game_edit_page_switches_the_half_bet_rule__BET_3(client, manager, game12):
    client.force_login(manager)
    form = client.get(f"/cashgame/games/{game12.pk}/").context["form"]
    assert form.initial["half_bet_rule"] is False
    data = {**form.initial, "max_buy_in": "300.00", "active": "on", "half_bet_rule": "on"}
    response = client.post(f"/cashgame/games/{game12.pk}/", data)
    assert response.status_code == 302, response.context["form"].errors
    assert Game.objects.get(pk=game12.pk).half_bet_rule is True
    assert AuditRecord.objects.get(action="cashgame.game_update").after["half_bet_rule"] is True


POTS = "/api/cashgame/calculators/side-pots/"


def test_side_pot_calculator_rakes_each_pot_by_the_game__RAK_6(api, floor, game12):
    # 1/2 EUR, four dealt: A and C 120 EUR each, B all-in for 20, D folded after 20.
    players = [
        {"name": "A", "amount_cents": 12_000},
        {"name": "B", "amount_cents": 2_000},
        {"name": "C", "amount_cents": 12_000},
        {"name": "D", "amount_cents": 2_000, "folded": True},
    ]
    response = api(floor).post(
        POTS, {"players": players, "ranking": [["B"], ["A"], ["C"]], "game": game12.pk}
    )
    assert response.status_code == 200, response.json()
    # 280 EUR: rake capped at 5 EUR (RAK-3), 1 EUR jackpot drop (JKP-2). In proportion to 80
    # and 200 EUR, down to the 0.50 chip: rake 1.00 and 3.50 (with the 0.50 left over), drop
    # 0 and 1.00. B, who can win only the main pot, pays only the main pot's 1.00.
    assert response.json() == {
        "pots": [
            {
                "amount_cents": 8_000,
                "eligible": ["A", "B", "C"],
                "rake_cents": 100,
                "drop_cents": 0,
                "net_cents": 7_900,
                "winners": ["B"],
            },
            {
                "amount_cents": 20_000,
                "eligible": ["A", "C"],
                "rake_cents": 400,
                "drop_cents": 100,
                "net_cents": 19_500,
                "winners": ["A"],
            },
        ],
        "returned_cents": {},
        "total_cents": 28_000,
        "dead_cents": 0,
        "rake_cents": 500,
        "drop_cents": 100,
        "awards_cents": {"A": 19_500, "B": 7_900, "C": 0, "D": 0},
        "pot_winners": [["B"], ["A"]],
    }


def test_side_pot_calculator_no_flop_no_rake__RAK_2_RAK_6(api, floor, game12):
    players = [
        {"name": "A", "amount_cents": 12_000},
        {"name": "B", "amount_cents": 2_000},
        {"name": "C", "amount_cents": 12_000},
    ]
    response = api(floor).post(POTS, {"players": players, "game": game12.pk, "saw_flop": False})
    assert [(pot["rake_cents"], pot["drop_cents"], pot["net_cents"]) for pot in response.json()["pots"]] == [
        (0, 0, 6_000),
        (0, 0, 20_000),
    ]


def test_side_pot_calculator_explicit_rake_split__RAK_6(api, floor):
    players = [
        {"name": "A", "amount_cents": 20},
        {"name": "B", "amount_cents": 5},
        {"name": "C", "amount_cents": 20},
    ]
    client = api(floor)
    response = client.post(POTS, {"players": players, "ranking": [["B"], ["A"], ["C"]], "rake_cents": 3})
    assert [
        (pot["amount_cents"], pot["rake_cents"], pot["net_cents"]) for pot in response.json()["pots"]
    ] == [
        (15, 1, 14),
        (30, 2, 28),
    ]
    assert response.json()["awards_cents"] == {"A": 28, "B": 14, "C": 0}
    too_much = client.post(POTS, {"players": players, "rake_cents": 40, "drop_cents": 10})
    assert (too_much.status_code, too_much.json()["code"], too_much.json()["rule"]) == (
        400,
        "fee_exceeds_pots",
        "RAK-6",
    )


def test_side_pot_calculator_dead_blind_joins_the_main_pot__POT_4(api, floor, game12):
    # A comes back and posts a dead small blind of 1 EUR, then is all-in for 30 EUR live.
    players = [
        {"name": "A", "amount_cents": 3_000, "dead_cents": 100},
        {"name": "B", "amount_cents": 10_000},
        {"name": "C", "amount_cents": 10_000},
    ]
    response = api(floor).post(POTS, {"players": players, "game": game12.pk})
    body = response.json()
    # Main 91 EUR (30 from each and the dead euro), side 140 EUR; three dealt: no jackpot drop.
    assert [
        (pot["amount_cents"], pot["eligible"], pot["rake_cents"], pot["net_cents"]) for pot in body["pots"]
    ] == [
        (9_100, ["A", "B", "C"], 150, 8_950),
        (14_000, ["B", "C"], 350, 13_650),
    ]
    assert (body["dead_cents"], body["rake_cents"], body["drop_cents"], body["total_cents"]) == (
        100,
        500,
        0,
        23_100,
    )
    refused = api(floor).post(POTS, {"players": [{"name": "A", "amount_cents": 5, "dead_cents": -1}]})
    assert (refused.status_code, list(refused.json()["detail"])) == (400, ["players"])


def test_side_pot_page_shows_dead_money_and_each_pots_rake__POT_4_RAK_6(client, floor, game12):
    client.force_login(floor)
    query = {
        "calc": "pots",
        "players": "A 30 dead 1\nB 100\nC 100",
        "ranking": "A > B",
        "game": str(game12.pk),
        "saw_flop": "on",
        "chip": "0.50",
    }
    page = client.get("/cashgame/calculators/", query).content.decode()
    assert "Main pot 91.00 EUR: A, B, C" in page
    assert "rake 1.50 EUR · jackpot drop 0.00 EUR · to its winner <strong>89.50 EUR</strong> (A)" in page
    assert "Side pot 140.00 EUR: B, C" in page and "<strong>136.50 EUR</strong> (B)" in page
    assert "Dead money in the main pot: 1.00 EUR" in page


def test_side_pot_page_refuses_a_bad_line__POT_4(client, floor):
    client.force_login(floor)
    page = client.get("/cashgame/calculators/", {"calc": "pots", "players": "A 30 dead\nB 10", "chip": "1"})
    pots = page.context["calc"]["pots"]
    assert pots["result"] is None
    assert pots["form"].errors["players"] == ["Give the dead blind's amount after 'dead': A 30 dead"]


def test_side_pot_calculator_takes_and_gives_cents_by_name(api, floor):
    """Money in the API is integer cents in `*_cents` fields: the side-pot calculator's amounts
    too. A text amount is refused, and so is an amount under its old name, which would
    otherwise be ignored (a rake meant but not applied): the API's money requests refuse every
    field they do not know (cardroom.api.MoneyRequestSerializer)."""
    client = api(floor)
    players = [{"name": "A", "amount_cents": 2_000}, {"name": "B", "amount_cents": 500}]
    body = client.post(POTS, {"players": players, "rake_cents": 100}).json()
    assert (body["total_cents"], body["rake_cents"], body["returned_cents"]) == (1_000, 100, {"A": 1_500})
    assert body["pots"] == [
        {"amount_cents": 1_000, "eligible": ["A", "B"], "rake_cents": 100, "drop_cents": 0, "net_cents": 900}
    ]
    old = client.post(POTS, {"players": players, "rake": 100})
    assert (old.status_code, old.json()["detail"]) == (
        400,
        {"rake": ["Unknown field. The amount goes in rake_cents, in whole cents (150000 is 1,500.00 EUR)."]},
    )
    old_player = client.post(POTS, {"players": [{"name": "A", "amount": 2_000}]})
    assert old_player.status_code == 400
    assert old_player.json()["detail"] == {
        "players": {
            "0": {
                "amount": [
                    "Unknown field. The amount goes in amount_cents, in whole cents (150000 is 1,500.00 EUR)."
                ]
            }
        }
    }
    text = client.post(POTS, {"players": [{"name": "A", "amount_cents": "20.00"}]})
    assert text.json()["detail"]["players"]["0"]["amount_cents"] == [
        "Give the amount in whole cents as a number, e.g. 150000 for 1,500.00 EUR."
    ]
    assert text.json()["rule"] == "CAG-5"
