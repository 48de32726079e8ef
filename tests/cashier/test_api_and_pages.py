import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.roles import Role
from cashier.models import Shift
from cashier.services import shift_open
from tests.conftest import make_staff

pytestmark = pytest.mark.django_db


def open_via_api(client):
    response = client.post("/api/cashier/shifts/", {"opening_float_cents": 100_000}, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def test_api_shift_lists_are_scoped__ROL_1(api, cashier, cashier2, manager):
    open_via_api(api(cashier))
    assert api(cashier2).get("/api/cashier/shifts/").json()["count"] == 0
    assert api(manager).get("/api/cashier/shifts/").json()["count"] == 1
    shift_id = Shift.objects.get().pk
    assert api(cashier2).get(f"/api/cashier/shifts/{shift_id}/").status_code == 404
    assert (
        api(cashier2)
        .post(f"/api/cashier/shifts/{shift_id}/close/", {"counted_cents": 0}, format="json")
        .status_code
        == 404
    )


def test_api_close_shows_variance__CAG_3(api, cashier):
    client = api(cashier)
    shift_id = open_via_api(client)
    response = client.post(f"/api/cashier/shifts/{shift_id}/close/", {"counted_cents": 99_550}, format="json")
    assert response.status_code == 200
    figures = response.json()
    assert (figures["expected_cents"], figures["counted_cents"], figures["variance_cents"]) == (
        100_000,
        99_550,
        -450,
    )


@pytest.mark.parametrize("counted", ["995.50", "995,50", 995.5, True])
def test_api_money_is_integer_cents_only__CAG_5(api, cashier, counted):
    client = api(cashier)
    shift_id = open_via_api(client)
    response = client.post(
        f"/api/cashier/shifts/{shift_id}/close/", {"counted_cents": counted}, format="json"
    )
    assert response.status_code == 400
    assert "whole cents" in str(response.json()["detail"])
    assert Shift.objects.get().status == "open"


def test_close_page_by_denomination__CAG_3(client, cashier):
    client.force_login(cashier)
    client.post("/cashier/shifts/open/", {"opening_float": "500"})
    shift = Shift.objects.get()
    response = client.post(
        f"/cashier/shifts/{shift.pk}/close/",
        {"d_10000": "4", "d_5000": "2", "idempotency_key": "close-page-1"},
    )
    assert response.status_code == 302
    shift.refresh_from_db()
    assert (shift.counted_cents, shift.variance_cents) == (50_000, 0)


def test_balances_show_where_the_money_is__CAG_1(api, cashier, manager):
    client = api(cashier)
    shift_id = open_via_api(client)
    assert api(cashier).get("/api/cashier/balances/").status_code == 403
    data = api(manager).get("/api/cashier/balances/").json()
    assert data["accounts_cents"]["vault"] == -100_000
    assert data["open_drawers_cents"] == {str(shift_id): 100_000}
    early = api(manager).get("/api/cashier/balances/", {"at": "2000-01-01T00:00:00Z"}).json()
    assert early["accounts_cents"]["vault"] == 0
    assert early["open_drawers_cents"] == {str(shift_id): 0}


def test_balances_take_the_same_queries_however_many_drawers_are_open__CAG_1(api, manager):
    client = api(manager)
    client.get("/api/cashier/balances/")  # the venue, read once per process
    counts = []
    for n in range(3):
        shift_open(actor=make_staff(f"desk{n}", Role.CASHIER), opening_float_cents=10_000 * (n + 1))
        with CaptureQueriesContext(connection) as captured:
            data = client.get("/api/cashier/balances/").json()
        counts.append(len(captured))
    assert sorted(data["open_drawers_cents"].values()) == [10_000, 20_000, 30_000]
    assert data["accounts_cents"]["vault"] == -60_000
    assert counts[0] == counts[1] == counts[2]
