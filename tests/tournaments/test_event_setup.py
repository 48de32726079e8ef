"""Setting up a multi-day event from the pages (SER-2): a manager creates the event with its
house options, adds its Day-1 flights and names its Day 2, each action through its one service;
what a service would refuse is not offered, a refusal shows why and writes nothing, and only a
manager sets up (ROL-1)."""

import pytest

from cardroom.models import AuditRecord
from tests.tournaments.factories import TournamentFactory
from tournaments.models import BagRule, Event, GuaranteeMode, Tournament
from tournaments.services.events import event_create, event_flight_add

pytestmark = pytest.mark.django_db

LIST = "/tournaments/events/"
NEW = "/tournaments/events/new/"


def _flight_form(page: str) -> str:
    """The event page's "Add a flight" part."""
    return page.split('id="add-flight"', 1)[1].split('id="day-two-title"', 1)[0]


@pytest.fixture
def spring(manager):
    return event_create(actor=manager, name="Spring Main")


def test_manager_creates_an_event_on_the_page__SER_2(client, manager):
    client.force_login(manager)
    page = client.get(LIST).content.decode()
    assert "No event yet." in page
    assert f'action="{NEW}"' in page

    response = client.post(
        NEW,
        {
            "name": "  Autumn Deepstack ",
            "bag_rule": "first",
            "guarantee_mode": "unconditional",
            "guarantee_cents": "5,000",
            "guarantee_player_count": "15",
        },
    )

    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/events/{event.pk}/"
    assert (event.name, event.bag_rule, event.guarantee_mode, event.guarantee_cents) == (
        "Autumn Deepstack",
        BagRule.FIRST,
        GuaranteeMode.UNCONDITIONAL,
        500_000,
    )
    assert list(AuditRecord.objects.filter(action="event.create").values_list("actor", flat=True)) == [
        manager.pk
    ]
    page = client.get(LIST).content.decode()
    assert f'<a href="/tournaments/events/{event.pk}/"><strong>Autumn Deepstack</strong></a>' in page
    assert "€5,000.00" in page or "5,000.00" in page


def test_manager_adds_two_flights_and_the_day_two_on_the_event_page__SER_2(client, manager, spring):
    one_a = TournamentFactory(name="Spring 1A", status="scheduled")
    one_b = TournamentFactory(name="Spring 1B")
    day_two = TournamentFactory(name="Spring Day 2", status="scheduled")
    with_guarantee = TournamentFactory(
        name="Sunday Guaranteed", guarantee_mode=GuaranteeMode.UNCONDITIONAL, guarantee_cents=100_000
    )
    url = f"/tournaments/events/{spring.pk}/"
    client.force_login(manager)

    page = client.get(url).content.decode()
    assert 'name="label" value="1A"' in page
    assert f'<option value="{one_a.pk}">Spring 1A · 6. 3. 2026 19:00</option>' in _flight_form(page)
    # A flight has no guarantee of its own: the service would refuse it, so it is not offered.
    assert f'<option value="{with_guarantee.pk}">' not in _flight_form(page)

    response = client.post(f"{url}flights/", {"tournament": one_a.pk, "label": "1a"})
    assert response.status_code == 302
    assert client.get(url).content.decode().count('name="label" value="1B"') == 1
    assert client.post(f"{url}flights/", {"tournament": one_b.pk, "label": "1B"}).status_code == 302
    response = client.post(f"{url}day-two/", {"tournament": day_two.pk})
    assert response.status_code == 302

    flights = Tournament.objects.filter(event=spring).order_by("flight_label")
    assert [(flight.flight_label, flight.name) for flight in flights] == [
        ("1A", "Spring 1A"),
        ("1B", "Spring 1B"),
    ]
    spring.refresh_from_db()
    assert spring.day_two == day_two
    assert AuditRecord.objects.filter(action="event.flight_add").count() == 2
    assert AuditRecord.objects.filter(action="event.day_two_set").count() == 1

    page = client.get(url).content.decode()
    assert f'<option value="{one_a.pk}">' not in _flight_form(page)  # a flight now
    assert f'action="{url}day-two/"' not in page  # the Day 2 is named
    listing = client.get(LIST).content.decode()
    assert "<strong>1A</strong> · " in listing and "<strong>1B</strong> · " in listing
    assert f'<a href="/tournaments/{day_two.pk}/">Spring Day 2</a>' in listing


def test_a_refused_flight_or_day_two_shows_why_and_writes_nothing__SER_2(client, manager, spring):
    one_a = TournamentFactory(name="Spring 1A")
    event_flight_add(actor=manager, event=spring, tournament=one_a, label="1A")
    other = TournamentFactory(name="Spring 1B")
    with_guarantee = TournamentFactory(
        name="Sunday Guaranteed", guarantee_mode=GuaranteeMode.UNCONDITIONAL, guarantee_cents=100_000
    )
    url = f"/tournaments/events/{spring.pk}/"
    audits = AuditRecord.objects.count()
    client.force_login(manager)

    taken = client.post(f"{url}flights/", {"tournament": other.pk, "label": "1A"})
    assert taken.status_code == 400
    assert "The event has a flight 1A already." in taken.content.decode()
    guaranteed = client.post(f"{url}flights/", {"tournament": with_guarantee.pk, "label": "1B"})
    assert "The guarantee is the event&#x27;s: remove the flight&#x27;s own guarantee first." in (
        guaranteed.content.decode()
    )
    flight_as_day_two = client.post(f"{url}day-two/", {"tournament": one_a.pk})
    assert flight_as_day_two.status_code == 400
    assert "This tournament is part of an event already." in flight_as_day_two.content.decode()
    no_label = client.post(f"{url}flights/", {"tournament": other.pk, "label": ""})
    assert no_label.status_code == 400

    assert list(Tournament.objects.filter(event=spring).values_list("name", flat=True)) == ["Spring 1A"]
    other.refresh_from_db()
    spring.refresh_from_db()
    assert (other.event_id, other.flight_label, spring.day_two_id) == (None, "", None)
    assert AuditRecord.objects.count() == audits


def test_a_refused_event_shows_why_and_writes_nothing__SER_2(client, manager, spring):
    client.force_login(manager)
    audits = AuditRecord.objects.count()
    same_name = client.post(
        NEW,
        {"name": "Spring Main", "bag_rule": "best", "guarantee_mode": "none", "guarantee_player_count": "15"},
    )
    assert same_name.status_code == 400
    assert "An event of this name exists already." in same_name.content.decode()
    no_amount = client.post(
        NEW,
        {
            "name": "Winter",
            "bag_rule": "best",
            "guarantee_mode": "conditional",
            "guarantee_player_count": "15",
        },
    )
    assert no_amount.status_code == 400
    assert "A guarantee needs an amount and its kind; no guarantee has neither." in no_amount.content.decode()
    assert list(Event.objects.values_list("name", flat=True)) == ["Spring Main"]
    assert AuditRecord.objects.count() == audits


def test_a_cashier_is_refused_and_a_floor_member_reads_only__SER_2(client, cashier, floor, spring):
    day_two = TournamentFactory(name="Spring Day 2", status="scheduled")
    url = f"/tournaments/events/{spring.pk}/"
    client.force_login(cashier)
    assert client.get(LIST).status_code == 403
    assert (
        client.post(
            NEW,
            {
                "name": "Cage Cup",
                "bag_rule": "best",
                "guarantee_mode": "none",
                "guarantee_player_count": "15",
            },
        ).status_code
        == 403
    )
    assert client.post(f"{url}day-two/", {"tournament": day_two.pk}).status_code == 403

    client.force_login(floor)
    page = client.get(LIST).content.decode()
    assert 'disabled aria-describedby="why-no-event">Create the event</button>' in page
    assert "A manager sets up events." in page
    event_page = client.get(url).content.decode()
    assert 'disabled aria-describedby="why-no-flight">Add the flight</button>' in event_page
    assert 'disabled aria-describedby="why-no-day-two">Name the Day 2</button>' in event_page
    assert client.post(f"{url}flights/", {"tournament": day_two.pk, "label": "1A"}).status_code == 403

    assert list(Event.objects.values_list("name", flat=True)) == ["Spring Main"]
    spring.refresh_from_db()
    assert spring.day_two_id is None
    assert not Tournament.objects.filter(event=spring).exists()
