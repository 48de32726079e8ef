"""One installation, several venues (VEN-1): the kernel's part. Every venue-scoped row names its
venue, a request and a task work for one venue and read only its rows, each venue keeps its own
books and receipt numbers, and a new venue opens with its own chips."""

from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.test import Client

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, Venue
from cardroom.roles import Role, user_roles
from cardroom.selectors import gaming_day_of, venue_get
from cardroom.services import staff_role_grant
from cardroom.venues import SESSION_VENUE, venue_activate
from cashgame.models import CashTable, Game
from cashier.models import CashierTransaction, Entry, Posting
from cashier.services import shift_open
from cashier.services.ledger import account_for, ledger_post
from chips.models import ChipSet
from reports.selectors.books import books_problems
from tests.cashgame.conftest import at, key, make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db):
    """A second venue of the operator, an hour east of the first, its gaming day from 08:00."""
    call_command("venue_add", "Casino Two", "two", time_zone="Europe/Kyiv", verbosity=0)
    return Venue.objects.get(slug="two")


def night_at(venue, cashier, *, table_number: int, amount_cents: int):
    """A cash game with one table at `venue`, the cage stocked, and one buy-in sold."""
    with venue_activate(venue):
        cage_stock(cashier)
        shift = shift_open(actor=cashier, opening_float_cents=100_000, now=at(0))
        table = make_table(make_game(), number=table_number)
        from cashgame.services.sessions import session_buy_in

        session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(),
            seat=1,
            amount_cents=amount_cents,
            idempotency_key=key(),
            now=at(1),
        )
    return table


def test_existing_rows_belong_to_the_first_venue_and_a_new_row_to_the_active_one__VEN_1(two):
    first = venue_get()
    assert first.slug == "room"
    game_here = make_game(name="NLHE 1/2")
    with venue_activate(two):
        game_there = make_game(name="NLHE 1/2")  # the same name: names are unique per venue
    assert (game_here.venue_id, game_there.venue_id) == (first.pk, two.pk)
    assert list(Game.all_venues.order_by("pk")) == [game_here, game_there]
    with venue_activate(two):
        assert list(Game.objects.all()) == [game_there]
    with venue_activate(first):
        assert list(Game.objects.all()) == [game_here]


def test_each_venue_keeps_its_own_books_and_numbers_its_own_receipts__VEN_1(two):
    cashier_one = make_staff("cashier-one", Role.CASHIER)
    cashier_two = make_staff("cashier-two")
    staff_role_grant(user=cashier_two, role=Role.CASHIER.value, venue=two)
    night_at(venue_get(), cashier_one, table_number=1, amount_cents=20_000)
    night_at(two, cashier_two, table_number=1, amount_cents=15_000)
    receipts = {
        (row.venue.slug, row.kind, row.receipt_number)
        for row in CashierTransaction.all_venues.select_related("venue")
    }
    assert receipts == {("room", "cash_buy_in", 1), ("two", "cash_buy_in", 1)}
    for venue in (venue_get(), two):
        with venue_activate(venue):
            assert books_problems() == []
            # Every entry of the venue's postings is on the venue's own accounts.
            assert not Entry.objects.exclude(account__venue=venue).exists()
            assert not Entry.objects.exclude(posting__venue=venue).exists()
    postings = Posting.all_venues
    assert postings.filter(venue=two).count() == postings.filter(venue=venue_get()).count()


def test_a_posting_between_two_venues_books_is_refused_and_writes_nothing__VEN_1(two):
    here = account_for(kind="vault")
    with venue_activate(two):
        there = account_for(kind="vault")
    assert here.venue_id != there.venue_id
    with pytest.raises(DomainError) as refused:
        ledger_post(lines=[(here, 1_000), (there, -1_000)], description="across")
    assert (refused.value.code, refused.value.rule) == ("posting_across_venues", "VEN-1")
    assert not Posting.all_venues.exists() and not Entry.all_venues.exists()


def test_the_venues_own_time_zone_and_gaming_day_apply_to_its_rows__VEN_1(two):
    Venue.objects.filter(pk=two.pk).update(gaming_day_start_hour=8)
    moment = datetime(2026, 11, 10, 5, 30, tzinfo=UTC)  # 06:30 in Bratislava, 07:30 in Kyiv
    assert str(gaming_day_of(moment)) == "2026-11-10"  # Bratislava's day starts at 06:00
    with venue_activate(two.pk):
        assert str(gaming_day_of(moment)) == "2026-11-09"  # Kyiv's at 08:00 (reloaded at once)


def test_another_venues_table_is_not_found_at_this_venues_address__VEN_1(two, client):
    manager = make_staff("manager-one", Role.MANAGER)
    staff_role_grant(user=manager, role=Role.MANAGER.value, venue=two)
    with venue_activate(two):
        theirs = make_table(make_game(), number=7)
    ours = make_table(make_game(), number=7)
    client.force_login(manager)
    session = client.session
    session[SESSION_VENUE] = venue_get().pk
    session.save()
    assert client.get(f"/cashgame/tables/{ours.pk}/").status_code == 200
    assert client.get(f"/cashgame/tables/{theirs.pk}/").status_code == 404
    # At the other venue's address the same staff member works there: the other way round.
    assert client.get(f"/v/two/cashgame/tables/{theirs.pk}/").status_code == 200
    assert client.get(f"/v/two/cashgame/tables/{ours.pk}/").status_code == 404
    assert client.get("/v/nowhere/room/").status_code == 404
    assert CashTable.all_venues.count() == 2


def test_roles_are_held_per_venue__VEN_1(two):
    person = make_staff("both-rooms", Role.CASHIER)
    staff_role_grant(user=person, role=Role.FLOOR.value, venue=two)
    person = type(person).objects.get(pk=person.pk)  # a new request: roles read again
    assert user_roles(person) == {Role.CASHIER}
    with venue_activate(two):
        assert user_roles(person) == {Role.FLOOR}


def test_staff_of_several_venues_pick_one_once_per_session__VEN_1(two):
    person = make_staff("both-rooms", Role.MANAGER)
    staff_role_grant(user=person, role=Role.FLOOR.value, venue=two)
    client = Client()
    client.force_login(person)
    asked = client.get("/floor/")
    assert (asked.status_code, asked["Location"]) == (302, "/venue/pick/?next=%2Ffloor%2F")
    page = client.get(asked["Location"]).content.decode()
    assert "Card Room" in page and "Casino Two" in page
    picked = client.post("/venue/pick/", {"venue": two.pk, "next": "/floor/"})
    assert (picked.status_code, picked["Location"]) == (302, "/floor/")
    assert client.get("/floor/").status_code == 200  # the floor view, as the floor of Casino Two
    assert client.get("/reports/").status_code == 403  # a manager in the other venue only
    # Somebody else's venue cannot be picked, and a foreign address is not followed.
    stranger = Venue.objects.create(name="Not his", slug="not-his")
    refused = client.post("/venue/pick/", {"venue": stranger.pk, "next": "https://evil.example/"})
    assert refused.status_code == 302 and refused["Location"].startswith("/venue/pick/")
    assert client.session[SESSION_VENUE] == two.pk
    assert client.post("/venue/pick/", {"venue": two.pk, "next": "https://evil.example/"})["Location"] == "/"


def test_staff_of_one_venue_never_pick__VEN_1(two, client):
    person = make_staff("only-two")
    staff_role_grant(user=person, role=Role.FLOOR.value, venue=two)
    client.force_login(person)
    first = client.get("/floor/")
    assert (first.status_code, first["Location"]) == (302, "/floor/")  # his own venue, at once
    assert client.get("/floor/").status_code == 200
    assert client.session[SESSION_VENUE] == two.pk


def test_a_new_venue_opens_with_its_own_chip_sets_and_is_audited__VEN_1(two):
    sets = {(row.venue.slug, row.kind) for row in ChipSet.all_venues.select_related("venue")}
    assert sets == {("room", "cash"), ("room", "tournament"), ("two", "cash"), ("two", "tournament")}
    record = AuditRecord.all_venues.get(action="venue.create")
    assert (record.venue_id, record.actor_name, record.after["slug"]) == (two.pk, "system", "two")


@pytest.mark.parametrize(
    ("slug", "code"), [("Casino Two", "invalid_slug"), ("two", "slug_taken"), ("-two", "invalid_slug")]
)
def test_a_venue_needs_a_free_address_name__VEN_1(two, slug, code):
    from cardroom.services import venue_create

    with pytest.raises(DomainError) as refused:
        venue_create(actor=None, name="Casino Three", slug=slug)
    assert (refused.value.code, refused.value.rule) == (code, "VEN-1")
    assert Venue.objects.count() == 2


def test_a_reconciler_sent_with_no_venue_runs_once_for_each_venue__VEN_1(two):
    from cardroom.celery import app
    from cardroom.venues import venue_active_id

    seen = []

    @app.task(name="tests.venue_probe", shared=False)
    def probe(**kwargs):
        seen.append(venue_active_id())
        return {"done": 1}

    assert probe.apply().get() == {"done": 2}
    assert seen == [venue_get().pk, two.pk]
    seen.clear()
    assert probe.apply(kwargs={"venue_id": two.pk}).get() == {"done": 1}
    assert seen == [two.pk]


def test_a_tablet_pairs_with_a_code_of_another_venue_and_works_for_that_venue__VEN_1(two):
    from devices.models import Device
    from devices.services import pairing_code_create

    manager = make_staff("manager-two")
    staff_role_grant(user=manager, role=Role.MANAGER.value, venue=two)
    with venue_activate(two):
        table = make_table(make_game(), number=3)
        _pairing, code = pairing_code_create(actor=manager, table=table)
    tablet = Client()
    paired = tablet.post("/tablet/pair/", {"code": code})  # typed at the first venue's address
    assert (paired.status_code, paired["Location"]) == (302, "/tablet/")
    device = Device.all_venues.get()
    assert (device.venue_id, device.table_id) == (two.pk, table.pk)
    page = tablet.get("/tablet/")
    assert page.status_code == 200 and page.wsgi_request.venue == two
    record = AuditRecord.all_venues.get(action="devices.device_pair")
    assert record.venue_id == two.pk
