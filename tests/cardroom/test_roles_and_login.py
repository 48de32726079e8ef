import pytest
from django.db import connection

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# (url, who may GET it). Everyone else who is logged in gets 403; anonymous users go to log-in.
PAGES = [
    ("/", {"floor", "cashier", "manager", "administrator"}),
    ("/players/", {"floor", "cashier", "manager"}),
    ("/players/new/", {"floor", "cashier", "manager"}),
    ("/venue/", {"manager"}),
    ("/audit/", {"manager", "administrator"}),
    ("/cashier/shifts/open/", {"cashier"}),
    ("/cashier/shifts/", {"cashier", "manager"}),
    ("/cashier/reversals/", {"manager"}),
]


@pytest.fixture
def staff(floor, cashier, manager, administrator):
    return {"floor": floor, "cashier": cashier, "manager": manager, "administrator": administrator}


@pytest.mark.parametrize(("url", "allowed"), PAGES)
def test_each_role_reaches_only_its_pages__ROL_1(client, staff, url, allowed):
    anonymous = client.get(url)
    assert anonymous.status_code == 302
    assert anonymous.url.startswith("/login/")
    for name, user in staff.items():
        client.force_login(user)
        assert client.get(url).status_code == (200 if name in allowed else 403), name


@pytest.mark.parametrize(
    ("method", "url", "allowed"),
    [
        ("get", "/api/players/?q=1", {"floor", "cashier", "manager"}),
        ("post", "/api/players/1/exclude/", {"manager"}),
        ("get", "/api/schema/", {"floor", "cashier", "manager", "administrator"}),
        ("post", "/api/cashier/transactions/", {"cashier"}),
        ("get", "/api/cashier/balances/", {"manager"}),
    ],
)
def test_api_fails_closed_and_checks_roles__ROL_1(api, staff, method, url, allowed):
    assert getattr(api(None), method)(url).status_code in (401, 403)
    for name, user in staff.items():
        status = getattr(api(user), method)(url, {}, format="json").status_code
        if name in allowed:
            assert status not in (401, 403), name
        else:
            assert status == 403, name


def test_token_auth_for_api(api, cashier):
    client = api(None)
    response = client.post("/api/auth/token/", {"username": "cashier1", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/players/?q=x").status_code == 200


def test_login_and_logout_pages(client, cashier):
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": "cashier1", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").status_code == 200
    assert client.post("/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_login_flood_locks_that_user_only__ROL_1(client, cashier, floor):
    statuses = [
        client.post(
            "/login/", {"username": "cashier1", "password": "wrong"}, REMOTE_ADDR="10.0.0.9"
        ).status_code
        for _ in range(5)
    ]
    assert statuses == [200, 200, 200, 200, 429]  # the fifth failure locks
    # The sixth try is refused even with the right password...
    locked = client.post("/login/", {"username": "cashier1", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    # ...but another user at the same desk logs in.
    other = client.post("/login/", {"username": "floor1", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_page_post_without_csrf_token_refused(cashier):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/login/", {"username": "cashier1", "password": PASSWORD})
    assert response.status_code == 403


def test_role_groups_created_by_migration__ROL_1():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM auth_group ORDER BY name")
        assert [row[0] for row in cursor.fetchall()] == ["Administrator", "Cashier", "Floor", "Manager"]


def test_an_administrator_cannot_make_anyone_superuser__ROL_1(client, administrator, floor):
    administrator.is_staff = True  # the admin site needs it (as the demo's administrator has)
    administrator.save(update_fields=["is_staff"])
    client.force_login(administrator)
    page = client.get(f"/admin/auth/user/{floor.pk}/change/")
    assert page.status_code == 200
    assert 'name="is_superuser"' not in page.content.decode()
    form = {
        "username": floor.username,
        "is_active": "on",
        "is_superuser": "on",
        "groups": [],
        "date_joined_0": "2026-11-01",
        "date_joined_1": "10:00:00",
    }
    client.post(f"/admin/auth/user/{floor.pk}/change/", form)
    floor.refresh_from_db()
    assert not floor.is_superuser
