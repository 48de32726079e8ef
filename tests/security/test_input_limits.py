"""Bad input is refused cleanly: a 4xx that names the problem, never a 500, nothing written."""

import json

import pytest

from cashier.models import CashierTransaction
from players.models import Player

pytestmark = pytest.mark.django_db


def open_shift(client) -> int:
    return client.post("/api/cashier/shifts/", {"opening_float_cents": 10_000}, format="json").json()["id"]


def test_oversize_body_refused(api, cashier):
    body = json.dumps({"first_name": "A" * 3_000_000, "last_name": "B", "date_of_birth": "1980-01-01"})
    response = api(cashier).post("/api/players/", body, content_type="application/json")
    assert response.status_code in (400, 413)
    assert Player.objects.count() == 0


@pytest.mark.parametrize("field", ["first_name", "last_name", "nickname"])
def test_very_long_strings_refused(api, cashier, field):
    body = {"first_name": "Ann", "last_name": "Bee", "date_of_birth": "1980-01-01", field: "x" * 81}
    response = api(cashier).post("/api/players/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["detail"]
    assert Player.objects.count() == 0


def test_unicode_names_kept_exactly(api, cashier):
    body = {"first_name": "Ľubomír", "last_name": "Ťažký-O'Brien 李", "date_of_birth": "1980-01-01"}
    response = api(cashier).post("/api/players/", body, format="json")
    assert response.status_code == 201
    assert Player.objects.get().last_name == "Ťažký-O'Brien 李"


@pytest.mark.parametrize("dob", ["0001-01-01", "9999-12-31", "1899-12-31"])
def test_far_past_and_future_birth_dates_refused__PLY_1(api, cashier, dob):
    response = api(cashier).post(
        "/api/players/", {"first_name": "A", "last_name": "B", "date_of_birth": dob}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_date_of_birth"
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    "amount", [10**12 + 1, 1e20, "99999999999999999999", -1, 12.1, "12.10", "1,500", True]
)
def test_huge_or_odd_amounts_refused__CAG_5(api, cashier, player, amount):
    client = api(cashier)
    shift = open_shift(client)
    response = client.post(
        "/api/cashier/transactions/",
        {
            "kind": "cash_buy_in",
            "shift": shift,
            "player": player.pk,
            "amount_cents": amount,
            "table": 1,
            "seat": 1,
            "idempotency_key": "limits-00000001",
        },
        format="json",
    )
    assert response.status_code == 400
    assert CashierTransaction.objects.count() == 0


def test_malformed_json_is_400(api, cashier):
    response = api(cashier).post("/api/players/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


@pytest.fixture
def player(db):
    from tests.factories import PlayerFactory

    return PlayerFactory()


def test_unknown_api_address_answers_json_404(api, cashier):
    response = api(cashier).get("/api/players/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No such address.", "rule": ""}
