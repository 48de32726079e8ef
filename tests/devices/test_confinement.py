"""A paired tablet reaches its own pages only (ROL-2): every other page sends it back to the
tablet page, every API answers 403, another table is out of reach, and staff have no tablet page."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cashgame.models import Hand
from tests.devices.conftest import pair
from tests.security.route_probe import routes

pytestmark = pytest.mark.django_db


def test_every_other_page_and_api_is_closed_to_the_tablet__ROL_2(tablet):
    problems = []
    checked = 0
    for name, path, methods in routes():
        # The rule book is open to it: a refusal on the tablet links its rule (read-only).
        if name.startswith("devices:tablet") or name in ("devices:pair", "set_language", "rules"):
            continue
        for method in methods:
            response = getattr(tablet, method)(path)
            checked += 1
            if path.startswith("/api/"):
                if response.status_code != 403 or response.json()["rule"] != "ROL-2":
                    problems.append(f"{method.upper()} {path}: {response.status_code}")
            elif (response.status_code, response.get("Location")) != (302, "/tablet/"):
                problems.append(f"{method.upper()} {path}: {response.status_code} {response.get('Location')}")
    for path in ("/admin/", "/login/", "/tablets/"):
        if tablet.get(path).get("Location") != "/tablet/":
            problems.append(path)
    assert problems == [] and checked > 150


def test_another_table_is_out_of_reach__ROL_2(tablet, table25):
    # The floor's dealer page and the API of another table send it back or refuse it.
    assert tablet.get(f"/cashgame/tables/{table25.pk}/dealer/")["Location"] == "/tablet/"
    assert (
        tablet.post(f"/cashgame/tables/{table25.pk}/dealer/start/", {"seats": [1, 2]})["Location"]
        == "/tablet/"
    )
    assert tablet.post(f"/api/cashgame/tables/{table25.pk}/hands/", {"seats": [1, 2]}).status_code == 403
    assert Hand.objects.count() == 0


def test_the_tablet_cookie_wins_over_a_staff_login_on_the_same_browser__ROL_2(tablet, manager):
    tablet.force_login(manager)
    assert tablet.get("/reports/")["Location"] == "/tablet/"
    assert tablet.get("/tablet/").status_code == 200


def test_staff_have_no_tablet_page_and_strangers_are_sent_to_pairing__ROL_2(client, floor):
    client.force_login(floor)
    assert client.get("/tablet/").status_code == 403
    assert client.post("/tablet/start/").status_code == 403
    assert Client().get("/tablet/")["Location"] == "/tablet/pair/"
    assert Client().get("/tablet/pair/").status_code == 200


def test_tablet_page_and_taps_have_pinned_queries__ROL_2(tablet, django_assert_num_queries):
    tablet.get("/tablet/")  # warms the session's and the accounts' caches
    # The device's lookup, the hands, the seats; the dealer at the table and the push to it.
    with django_assert_num_queries(3 + 2):
        tablet.get("/tablet/")
    with django_assert_num_queries(3 + 2):
        tablet.get("/tablet/seats/")
    hand = (("/tablet/start/", {"button_seat": "1"}), ("/tablet/flop/", {}), ("/tablet/end/", {"pot": "87"}))
    for path, body in hand:  # the first hand warms the rake, jackpot and chips accounts
        tablet.post(path, body)
    taps = {}
    for path, body in hand:
        with CaptureQueriesContext(connection) as queries:
            assert tablet.post(path, body).status_code == 302
        taps[path] = len(queries)
    # The floor's API taps (test_dealer_queries) plus the device's lookup, the last hand (for the
    # button), the tablet's own audit record of the start and the flop, and their savepoints; the
    # end reads the high-hand promotions that cover the game too (LOY-2).
    assert taps == {"/tablet/start/": 12, "/tablet/flop/": 10, "/tablet/end/": 16}


def test_a_second_table_tablet_logs_its_own_table_only__ROL_2(tablet, manager, table25, table12):
    other = pair(Client(), manager=manager, table=table25)
    other.post("/tablet/start/", {"button_seat": "1"})  # no one in play at table 2
    tablet.post("/tablet/start/", {"button_seat": "1"})
    assert list(Hand.objects.values_list("table__number", flat=True)) == [1]
