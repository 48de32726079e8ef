"""Multi-day events (SER-2) on the pages: the floor's bag page, signed by a second staff member
and refusing a count it cannot read, the event's page offering the Day 2 greyed out until the
bags are in, and the TV's Day 2 seat list turning its pages."""

import random
from datetime import timedelta
from functools import partial

import pytest

from tests.conftest import PASSWORD
from tests.tournaments.event_setup import bag_both, make_witness, spring_main
from tests.tournaments.factories import T0
from tournaments.models import Bag
from tournaments.selectors.events import day_two_seats_page
from tournaments.services.events import day_two_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def witness(db):
    return make_witness()


@pytest.fixture
def event_setup(floor, manager, cashier, shift, register):
    """event_setup(bag_rule=..., guarantee_cents=..., guarantee_mode=...) -> (event, flights, e1, e2,
    players): Spring Main's two flights ended, the Day 2 named (event_setup.spring_main)."""
    return partial(spring_main, floor=floor, manager=manager, cashier=cashier, shift=shift, register=register)


def test_bag_page_refuses_a_letter_and_records_with_a_second_signer__SER_2(
    client, floor, witness, event_setup
):
    event, flights, e1, _e2, _p = event_setup()
    client.force_login(floor)
    url = f"/tournaments/{flights['1A'].pk}/bags/"
    page = client.get(url).content.decode()
    assert f'name="count_{e1["Anna"].pk}"' in page and "Sign the bags of table 1" in page
    form = {
        "table": "1",
        f"count_{e1['Anna'].pk}": "4O,000",
        f"count_{e1['Boris'].pk}": "50,000",
        "witness": str(witness.pk),
        "password": PASSWORD,
    }
    response = client.post(url, form)
    assert response.status_code == 400
    assert "“4O,000” is not a chip count" in response.content.decode()
    assert 'value="4O,000"' in response.content.decode()
    assert Bag.objects.count() == 0
    response = client.post(url, {**form, f"count_{e1['Anna'].pk}": "40 000"})
    assert response.status_code == 302
    bags = {bag.player.first_name: (bag.chips, bag.counted_by, bag.witnessed_by) for bag in Bag.objects.all()}
    assert bags == {"Anna": (40_000, floor, witness), "Boris": (50_000, floor, witness)}
    page = client.get(f"/tournaments/events/{event.pk}/").content.decode()
    # The Day 2 is offered greyed out, with why: Dana has no bag yet.
    assert "Flight 1A: 1 player still has no bag; enter his count." in page
    assert "disabled" in page


def test_day_two_tv_turns_the_pages_of_a_long_list__SER_2(client, floor, witness, event_setup):
    event, flights, e1, e2, _p = event_setup()
    bag_both(floor, witness, flights, e1, e2)
    day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2), rng=random.Random(9))
    first = day_two_seats_page(event=event, page=1, per_page=3)
    assert ([row["name"] for row in first["rows"]], first["pages"], first["next_page"]) == (
        ["Anna N.", "Boris N.", "Dana N."],
        2,
        2,
    )
    second = day_two_seats_page(event=event, page=2, per_page=3)
    assert ([row["name"] for row in second["rows"]], second["next_page"]) == (["Emil N."], 1)
    page = client.get(f"/tv/events/{event.pk}/day-two/").content.decode()
    assert "Emil N." in page and "15,000" in page
