"""The page shell every page shares: the 403 page names the role a page needs (ROL-1) in the
user's language and leads back; one menu item is the current section; the favicon; the audit
trail reads as local times, EUR and labelled values, not raw JSON."""

import re
from datetime import UTC, datetime

import pytest
from django.test import override_settings

from cardroom.audit_display import actor_label, audit_lines, format_value
from cardroom.services import audit_record

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'<a href="([^"]+)" class="active" aria-current="page">([^<]+)</a>')


def test_forbidden_page_names_the_role_needed_and_links_back__ROL_1(client, floor):
    client.force_login(floor)
    response = client.get("/reports/", HTTP_REFERER="http://testserver/cashgame/waiting/")
    page = response.content.decode()
    assert response.status_code == 403
    assert '<h1 id="denied-heading">This page is not open to your role</h1>' in page
    assert "<p>It is for: <strong>Manager</strong>.</p>" in page
    assert "You are logged in as <strong>floor1</strong> (Floor)." in page
    assert '<a class="button primary" href="http://testserver/cashgame/waiting/">Back</a>' in page
    assert "ROL-1" not in page


def test_forbidden_page_in_slovak_and_back_to_home_from_another_site__ROL_1(client, floor):
    client.force_login(floor)
    response = client.get("/audit/", HTTP_ACCEPT_LANGUAGE="sk", HTTP_REFERER="https://example.com/x")
    page = response.content.decode()
    assert response.status_code == 403
    assert "<p>Je pre: <strong>Manažér</strong>, <strong>Administrátor</strong>.</p>" in page
    assert '<a class="button primary" href="/">Späť</a>' in page


@override_settings(DEBUG=False)
def test_forbidden_page_is_the_same_with_debug_off__ROL_1(client, cashier):
    client.force_login(cashier)
    response = client.get("/venue/")
    assert response.status_code == 403
    assert "<p>It is for: <strong>Manager</strong>.</p>" in response.content.decode()


@pytest.mark.parametrize(
    ("path", "current"),
    [
        ("/cashgame/desk/", ("/cashgame/desk/", "Cash-game desk")),
        ("/cashier/shifts/", ("/cashier/shifts/", "Shifts")),
        ("/cashier/reversals/", ("/cashier/reversals/", "Corrections")),
        ("/tournaments/cashier/", ("/tournaments/cashier/", "Tournament cashier")),
        ("/tournaments/", ("/tournaments/", "Tournaments")),
        ("/cashgame/waiting/", ("/cashgame/waiting/", "Waiting lists")),
        ("/cashgame/", ("/cashgame/", "Cash tables")),
        ("/reports/range/", ("/reports/", "Reports")),
    ],
)
def test_exactly_one_menu_item_is_the_current_section(client, path, current):
    from cardroom.roles import Role
    from tests.conftest import make_staff

    client.force_login(make_staff("everyone", Role.FLOOR, Role.CASHIER, Role.MANAGER))
    page = client.get(path).content.decode()
    assert CURRENT.findall(page) == [current]


def test_home_highlights_no_menu_item(client, manager):
    client.force_login(manager)
    assert CURRENT.findall(client.get("/").content.decode()) == []


def test_every_page_links_the_favicon(client):
    page = client.get("/login/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert client.get("/static/favicon.svg").status_code == 200


def test_audit_values_read_as_eur_local_time_and_labels():
    lines = audit_lines(
        {
            "amount_cents": 123_450,
            "method": "cash",
            "at": "2026-11-10T17:05:00+00:00",
            "present": True,
            "places": [[3, 1], [5, 2]],
            "reference": "table:7",
            "percentages": [5000, 3000, 2000],
            "amounts": [27_000],
            "odd_key": None,
        },
        "cashier.cashiertransaction",
    )
    assert [(line.label, line.value, line.code) for line in lines] == [
        ("Amount", "1,234.50 EUR", False),
        ("Payment", "Cash", False),
        ("At", "2026-11-10 18:05:00", False),
        ("Present", "yes", False),
        ("Places", "3, 1; 5, 2", False),
        ("For", "table:7", True),
        ("Percentages", "50.00 %, 30.00 %, 20.00 %", False),
        ("Amounts", "270.00 EUR", False),
        ("Odd key", "—", False),
    ]
    # A dict's keys are labelled as the lines' are (a hand's pots: "Amount: 60.00 EUR; Rake: ...").
    assert format_value({"prize_cents": 9000}) == "Prize pool part: 90.00 EUR"


def test_audit_actor_is_a_log_in_the_clock_or_a_dealer_tablet_by_its_table__ROL_2():
    assert actor_label("floor1") == "floor1"
    assert actor_label("system") == "System (clock and timers)"
    assert actor_label("tablet-3-86a2f4c2") == "Dealer tablet of table 3"
    assert actor_label("tablet-fan") == "tablet-fan"


def test_audit_page_shows_labelled_values_not_json(client, manager):
    audit_record(
        actor=manager,
        action="cashier.shift_close",
        object_type="cashier.shift",
        object_id=4,
        before={"status": "open"},
        after={"status": "closed", "variance_cents": -50},
        now=datetime(2026, 11, 10, 22, 30, tzinfo=UTC),
    )
    audit_record(actor=None, action="clock.level_up", object_type="tournaments.tournament", object_id=2)
    client.force_login(manager)
    page = client.get("/audit/").content.decode()
    assert '<td class="nowrap">2026-11-10 23:30:00</td>' in page
    assert "<dt>Variance</dt><dd>-0.50 EUR</dd>" in page
    assert 'class="json"' not in page and "{&quot;status" not in page
    assert "<td>Shift 4" in page
    assert "<td>System (clock and timers)</td>" in page


@pytest.mark.parametrize("records", [3, 60])
def test_audit_page_reads_a_fixed_number_of_queries(client, manager, django_assert_num_queries, records):
    for number in range(records):
        audit_record(
            actor=manager,
            action="cashier.buy_in",
            object_type="cashier.cashiertransaction",
            object_id=number,
            after={"amount_cents": 10_000 + number, "method": "cash"},
        )
    client.force_login(manager)
    with django_assert_num_queries(8):  # session, user, roles, venue, actions, kinds of object, count, page
        page = client.get("/audit/").content.decode()
    assert page.count("<dt>Amount</dt>") == records


def test_the_first_link_skips_the_menu_to_the_page(client, manager):
    client.force_login(manager)
    page = client.get("/players/").content.decode()
    body = page[page.index("<body") :]
    first_link = re.search(r"<a [^>]*>[^<]*</a>", body).group(0)
    assert first_link == '<a class="skip-link" href="#main">Skip to the page’s content</a>'
    assert '<main class="page" id="main" tabindex="-1">' in page


def test_audit_filter_offers_kinds_of_object_by_name_and_filters_by_one(client, manager):
    audit_record(actor=manager, action="cashier.shift_open", object_type="cashier.shift", object_id=1)
    audit_record(actor=manager, action="player.create", object_type="players.player", object_id=2)
    client.force_login(manager)
    page = client.get("/audit/", {"object_type": "cashier.shift"}).content.decode()
    assert '<option value="cashier.shift" selected>Shift</option>' in page
    assert '<option value="players.player">Player</option>' in page
    rows = page[page.index("<tbody>") : page.index("</tbody>")]
    assert 'data-action="cashier.shift_open"' in rows and 'data-action="player.create"' not in rows


def test_audit_filter_with_an_unknown_kind_says_so_and_filters_nothing(client, manager):
    audit_record(actor=manager, action="player.create", object_type="players.player", object_id=2)
    client.force_login(manager)
    page = client.get("/audit/", {"object_type": "nonsense"}).content.decode()
    assert (
        '<div class="error-box" role="alert"><p>Object type: Select a valid choice. '
        "nonsense is not one of the available choices.</p></div>"
    ) in page
    assert 'data-action="player.create"' in page
