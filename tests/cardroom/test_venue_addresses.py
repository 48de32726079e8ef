"""A venue's addresses (VEN-1): the manager edits the address name (/v/<slug>/) and the host names
on the venue settings page; each is checked (format, one venue per address, no scheme, path or
port), a refusal names the problem at its field and writes nothing, a change is audited; the
page shows where the venue's public pages are."""

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, Venue
from cardroom.roles import Role
from cardroom.services import host_names_parse, staff_role_grant, venue_update
from tests.conftest import make_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db):
    return Venue.objects.create(name="Casino Two", slug="two", host_names="two.example.com")


def settings_form(**changes) -> dict:
    form = {
        "name": "Card Room",
        "slug": "room",
        "host_names": "",
        "time_zone": "Europe/Bratislava",
        "smallest_chip_cents": "0.50",
        "gaming_day_start_hour": "6",
        "aml_threshold_cents": "2000",
        "confirm_threshold_cents": "1,000",
        "recount_threshold_cents": "5",
        "dealer_push_minutes": "30",
        "identity_retention_years": "5",
    }
    return {**form, **changes}


def test_manager_sets_the_address_name_and_host_names_audited_VEN_1(client, manager, venue, two, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "room.example.sk"]
    client.force_login(manager)
    response = client.post(
        "/venue/",
        settings_form(slug="Centrum", host_names=" Cards.Example.com, ROOM.example.sk ,cards.example.com"),
    )
    assert (response.status_code, response["Location"]) == (302, "/venue/")
    venue.refresh_from_db()
    assert (venue.slug, venue.host_names) == ("centrum", "cards.example.com, room.example.sk")
    record = AuditRecord.objects.get(action="venue.update")
    assert (record.before["slug"], record.after["slug"]) == ("room", "centrum")
    assert (record.before["host_names"], record.after["host_names"]) == (
        "",
        "cards.example.com, room.example.sk",
    )
    # The public pages answer at the new address name and host names, no longer at the old name.
    assert client.get("/v/centrum/room/").status_code == 200
    assert client.get("/v/room/room/").status_code == 404
    assert (
        "<title>Card Room · Games and tournaments</title>"
        in client.get("/room/", HTTP_HOST="room.example.sk").content.decode()
    )


def test_venue_page_shows_the_public_addresses_VEN_1(client, manager, two):
    staff_role_grant(user=manager, role=Role.MANAGER.value, venue=two)
    client.force_login(manager)
    html = client.get("/v/two/venue/").content.decode()
    assert 'name="slug" value="two"' in html and 'name="host_names" value="two.example.com"' in html
    assert (
        '<li><a href="http://testserver/v/two/room/"><code>http://testserver/v/two/room/</code></a></li>'
        '<li><a href="http://two.example.com/room/"><code>http://two.example.com/room/</code></a></li>'
    ) in html


def test_venue_page_asked_at_the_old_address_goes_on_at_the_new_VEN_1(client, manager, two):
    staff_role_grant(user=manager, role=Role.MANAGER.value, venue=two)
    client.force_login(manager)
    response = client.post(
        "/v/two/venue/", settings_form(name="Casino Two", slug="deux", host_names="two.example.com")
    )
    assert (response.status_code, response["Location"]) == (302, "/v/deux/venue/")
    two.refresh_from_db()
    assert two.slug == "deux"
    assert client.get("/v/deux/venue/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"slug": "two rooms"},
            "slug",
            "The address name “two rooms” may hold lowercase letters, digits and hyphens only, at most 40, "
            "starting and ending with a letter or digit.",
        ),
        ({"slug": "-two"}, "slug", "The address name “-two” may hold lowercase letters"),
        (
            {"slug": "two"},
            "slug",
            "The address name “two” is another venue&#x27;s already. Choose another one.",
        ),
        (
            {"host_names": "https://cards.example.com"},
            "host_names",
            "Write the host name without http:// or https://: “https://cards.example.com”.",
        ),
        (
            {"host_names": "cards.example.com:8000"},
            "host_names",
            "A host name has no path and no port: “cards.example.com:8000”.",
        ),
        (
            {"host_names": "cards.example.com/room"},
            "host_names",
            "A host name has no path and no port: “cards.example.com/room”.",
        ),
        (
            {"host_names": "cards.example.com, cards_room.example.com"},
            "host_names",
            "“cards_room.example.com” is not a host name: use letters, digits, hyphens and dots "
            "(room.example.com).",
        ),
        (
            {"host_names": "cards.example.com, TWO.example.com"},
            "host_names",
            "The host name “two.example.com” is the address of Casino Two already.",
        ),
    ],
)
def test_venue_address_refused_at_its_field_and_nothing_written_VEN_1(
    client, manager, venue, two, changes, field, message
):
    client.force_login(manager)
    response = client.post("/venue/", settings_form(**changes))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert message in response.content.decode()
    venue.refresh_from_db()
    two.refresh_from_db()
    assert (venue.slug, venue.host_names, two.slug, two.host_names) == ("room", "", "two", "two.example.com")
    assert AuditRecord.all_venues.count() == 0


def test_venue_update_refuses_a_taken_address_name_directly_VEN_1(manager, venue, two):
    with pytest.raises(DomainError) as error:
        venue_update(actor=manager, venue=venue, slug="TWO")
    assert (error.value.code, error.value.rule) == ("slug_taken", "VEN-1")
    assert AuditRecord.all_venues.count() == 0


def test_host_names_read_lowercase_once_each_in_order_VEN_1():
    assert host_names_parse(" B.example.com,a.example.com., ,b.EXAMPLE.com") == [
        "b.example.com",
        "a.example.com",
    ]
    assert host_names_parse("") == []


def test_only_managers_change_the_venues_addresses_VEN_1(venue):
    floor = make_staff("floor-addr", Role.FLOOR)
    with pytest.raises(DomainError) as error:
        venue_update(actor=floor, venue=venue, slug="mine")
    assert error.value.status_code == 403
    venue.refresh_from_db()
    assert venue.slug == "room"
