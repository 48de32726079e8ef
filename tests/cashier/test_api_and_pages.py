import pytest

from cashier.models import CashierTransaction, Posting, Shift
from cashier.selectors import drawer_expected

pytestmark = pytest.mark.django_db


def open_via_api(client):
    response = client.post("/api/cashier/shifts/", {"opening_float": "1000.00"}, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def test_api_buy_in_replay_returns_first_response__CAG_2(api, cashier, player):
    client = api(cashier)
    shift_id = open_via_api(client)
    body = {
        "kind": "cash_buy_in",
        "shift": shift_id,
        "player": player.pk,
        "amount": "200.00",
        "reference": "session:3",
    }
    first = client.post(
        "/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="desk-1-000001"
    )
    again = client.post(
        "/api/cashier/transactions/", body, format="json", HTTP_IDEMPOTENCY_KEY="desk-1-000001"
    )
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["amount"] == "200.00"
    assert (first["Idempotent-Replayed"], again["Idempotent-Replayed"]) == ("false", "true")
    other = client.post(
        "/api/cashier/transactions/",
        {**body, "amount": "300.00"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="desk-1-000001",
    )
    assert other.status_code == 409
    assert other.json()["rule"] == "CAG-2"
    assert CashierTransaction.objects.count() == 1


@pytest.mark.parametrize(
    ("amount", "status", "code"),
    [
        ("12.345", 400, "invalid"),
        ("-5.00", 400, "amount_not_positive"),
        ("0", 400, "amount_not_positive"),
        ("abc", 400, "invalid"),
        ("99999999999999", 400, "invalid"),
    ],
)
def test_api_bad_amounts_refused_nothing_written(api, cashier, player, amount, status, code):
    client = api(cashier)
    shift_id = open_via_api(client)
    response = client.post(
        "/api/cashier/transactions/",
        {
            "kind": "cash_buy_in",
            "shift": shift_id,
            "player": player.pk,
            "amount": amount,
            "reference": "session:3",
            "idempotency_key": "bad-amount-0001",
        },
        format="json",
    )
    assert response.status_code == status
    assert response.json()["code"] == code
    assert CashierTransaction.objects.count() == 0


@pytest.mark.parametrize("shift_id", [999, 10**30])  # the second is beyond any database column
def test_api_unknown_shift_is_404(api, cashier, player, shift_id):
    response = api(cashier).post(
        "/api/cashier/transactions/",
        {
            "kind": "cash_buy_in",
            "shift": shift_id,
            "player": player.pk,
            "amount": "10",
            "reference": "session:3",
            "idempotency_key": "unknown-shift-01",
        },
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_shift"
    assert CashierTransaction.objects.count() == 0


def test_api_shift_lists_are_scoped__ROL_1(api, cashier, cashier2, manager):
    open_via_api(api(cashier))
    assert len(api(cashier2).get("/api/cashier/shifts/").json()) == 0
    assert len(api(manager).get("/api/cashier/shifts/").json()) == 1
    shift_id = Shift.objects.get().pk
    assert api(cashier2).get(f"/api/cashier/shifts/{shift_id}/").status_code == 404
    assert (
        api(cashier2)
        .post(f"/api/cashier/shifts/{shift_id}/close/", {"counted": "0"}, format="json")
        .status_code
        == 404
    )


def test_api_close_shows_variance__CAG_3(api, cashier):
    client = api(cashier)
    shift_id = open_via_api(client)
    response = client.post(f"/api/cashier/shifts/{shift_id}/close/", {"counted": "995.50"}, format="json")
    assert response.status_code == 200
    assert (response.json()["expected"], response.json()["counted"], response.json()["variance"]) == (
        "1000.00",
        "995.50",
        "-4.50",
    )


def test_api_reversal_flow__CAG_1(api, cashier, manager, manager2, player):
    client = api(cashier)
    shift_id = open_via_api(client)
    record = client.post(
        "/api/cashier/transactions/",
        {
            "kind": "cash_buy_in",
            "shift": shift_id,
            "player": player.pk,
            "amount": "50",
            "reference": "session:3",
            "idempotency_key": "reverse-me-0001",
        },
        format="json",
    ).json()
    request = client.post(
        "/api/cashier/reversals/", {"posting": record["posting"], "reason": "Wrong amount"}, format="json"
    )
    assert request.status_code == 201
    url = f"/api/cashier/reversals/{request.json()['id']}/approve/"
    assert api(cashier).post(url).status_code == 403
    assert api(manager2).post(url).json()["status"] == "approved"
    assert drawer_expected(shift=Shift.objects.get()) == 100_000
    assert Posting.objects.filter(reverses__isnull=False).count() == 1


def test_desk_page_open_sell_and_print(client, cashier, player):
    client.force_login(cashier)
    assert client.get("/cashier/").url == "/cashier/shifts/open/"
    assert client.post("/cashier/shifts/open/", {"opening_float": "500,00"}).status_code == 302
    page = client.get("/cashier/")
    assert "500.00 EUR" in page.content.decode()
    key = page.context["form"]["idempotency_key"].value()
    form = {
        "idempotency_key": key,
        "kind": "cash_buy_in",
        "player": player.pk,
        "amount": "100",
        "method": "cash",
        "reference": "session:9",
    }
    response = client.post("/cashier/", form)
    assert response.status_code == 302
    # A double tap with the same form posts nothing more.
    assert client.post("/cashier/", form).url == response.url
    assert CashierTransaction.objects.count() == 1
    receipt = client.get(response.url).content.decode()
    assert "Receipt 1" in receipt
    assert "100.00 EUR" in receipt


def test_desk_page_shows_rule_error(client, cashier, player):
    client.force_login(cashier)
    client.post("/cashier/shifts/open/", {"opening_float": "500"})
    response = client.post(
        "/cashier/",
        {
            "idempotency_key": "page-key-00001",
            "kind": "cash_out",
            "player": player.pk,
            "amount": "100",
            "reference": "session:9",
            "method": "cash",
        },
    )
    assert response.status_code == 200
    assert "cannot be paid from it" in response.content.decode()
    assert CashierTransaction.objects.count() == 0


def test_close_page_by_denomination__CAG_3(client, cashier):
    client.force_login(cashier)
    client.post("/cashier/shifts/open/", {"opening_float": "500"})
    shift = Shift.objects.get()
    response = client.post(f"/cashier/shifts/{shift.pk}/close/", {"d_10000": "4", "d_5000": "2"})
    assert response.status_code == 302
    shift.refresh_from_db()
    assert (shift.counted_cents, shift.variance_cents) == (50_000, 0)


def test_balances_show_where_the_money_is__CAG_1(api, cashier, manager, player):
    client = api(cashier)
    shift_id = open_via_api(client)
    client.post(
        "/api/cashier/transactions/",
        {
            "kind": "tournament_buy_in",
            "shift": shift_id,
            "player": player.pk,
            "tournament": 4,
            "prize": "90",
            "fee": "10",
            "idempotency_key": "balance-key-001",
        },
        format="json",
    )
    assert api(cashier).get("/api/cashier/balances/").status_code == 403
    data = api(manager).get("/api/cashier/balances/").json()
    assert data["accounts"]["vault"] == "-1000.00"
    assert data["accounts"]["tournament_fees"] == "10.00"
    assert data["open_drawers"] == {str(shift_id): "1100.00"}
    early = api(manager).get("/api/cashier/balances/", {"at": "2000-01-01T00:00:00Z"}).json()
    assert early["accounts"]["vault"] == "0.00"
    assert early["open_drawers"] == {str(shift_id): "0.00"}
