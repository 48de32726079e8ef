"""VEN-1, bad input: staff and tablets of venue A reaching for venue B's tables, tournaments and
shifts by their keys. Another venue's object is "not found" (or the role is refused there), and
nothing is written in any venue: no posting, cashier transaction, hand or audit record."""

import itertools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from cardroom.roles import Role
from cardroom.venues import venue_activate
from cashgame.models import PlayerSession
from cashgame.services.sessions import session_buy_in
from cashier.models import Shift, ShiftStatus
from cashier.services import shift_open
from devices.services import pairing_code_create
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import api_client_for
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.factories import TournamentFactory, seat_players
from tests.two_venues import books_agree, books_problems_everywhere, staff, venue_two, written
from tournaments.models import MoveSlip

pytestmark = pytest.mark.django_db

BRATISLAVA = ZoneInfo("Europe/Bratislava")
T0 = datetime(2026, 11, 10, 18, 0, tzinfo=BRATISLAVA)
_keys = itertools.count(1)


def key() -> str:
    return f"ven-bad-{next(_keys):06d}"


class Side:
    """One venue's game and open table, its cashier's open shift with chips in the cage, its
    floor member and a player bought in at seat 1."""

    def __init__(self, venue, tag: str):
        self.venue = venue
        self.cashier = staff(f"cashier-{tag}", {venue: [Role.CASHIER]})
        self.floor = staff(f"floor-{tag}", {venue: [Role.FLOOR]})
        self.manager = staff(f"manager-{tag}", {venue: [Role.MANAGER]})
        with venue_activate(venue):
            self.game = make_game()
            self.table = make_table(self.game, 1)
            self.spare = make_table(self.game, 2)
            self.shift = shift_open(actor=self.cashier, opening_float_cents=100_000, now=T0)
            cage_stock(self.cashier, now=T0)
            self.player = PlayerFactory(id_verified_at=T0)
            self.session = session_buy_in(
                actor=self.cashier,
                shift=self.shift,
                table=self.table,
                player=self.player,
                seat=1,
                amount_cents=20_000,
                idempotency_key=key(),
                now=T0 + timedelta(minutes=1),
            )


@pytest.fixture
def sides(venue):
    two = venue_two()
    return Side(venue, "a"), Side(two, "b")


def json_client(user, **headers):
    client = api_client_for(user)
    client.default_format = "json"
    return client


def test_a_cashier_of_a_cannot_buy_in_at_bs_table__VEN_1(sides):
    a, b = sides
    newcomer = PlayerFactory(id_verified_at=T0)
    before = written()
    body = {
        "shift": a.shift.pk,
        "table": b.table.pk,
        "player": newcomer.pk,
        "seat": 5,
        "amount_cents": 20_000,
        "idempotency_key": key(),
    }
    # In A (his only venue), B's table is no table at all.
    answer = json_client(a.cashier).post("/api/cashgame/sessions/buy-in/", body)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert "table" in answer.json()["detail"]
    # Naming B in X-Venue: he holds no role there.
    answer = json_client(a.cashier).post("/api/cashgame/sessions/buy-in/", body, HTTP_X_VENUE="two")
    assert (answer.status_code, answer.json()["rule"]) == (403, "ROL-1")
    # The cage's API, the same.
    cage = {"kind": "cash_buy_in", "shift": a.shift.pk, "player": newcomer.pk, "table": b.table.pk, "seat": 5}
    answer = json_client(a.cashier).post(
        "/api/cashier/transactions/", {**cage, "amount_cents": 20_000}, HTTP_IDEMPOTENCY_KEY=key()
    )
    assert answer.status_code == 404
    # The cash-game desk's page: B's table is not among A's tables.
    client = Client()
    client.force_login(a.cashier)
    form = {"idempotency_key": key(), "table": b.table.pk, "player": newcomer.card_number, "seat": 5}
    page = client.post("/cashgame/desk/buy-in/", {**form, "amount": "200", "method": "cash"})
    assert page.status_code == 200
    assert "Select a valid choice" in page.content.decode()
    # At B's address the desk is not his.
    page = client.post("/v/two/cashgame/desk/buy-in/", {**form, "amount": "200", "method": "cash"})
    assert page.status_code == 403
    assert written() == before
    assert PlayerSession.all_venues.filter(player=newcomer).count() == 0
    assert books_problems_everywhere() == books_agree()


def test_a_tablet_of_a_logs_no_hand_at_bs_table__VEN_1(sides):
    a, b = sides
    _pairing, code = pairing_code_create(actor=a.manager, table=a.table)
    tablet = Client()
    assert tablet.post("/tablet/pair/", {"code": code})["Location"] == "/tablet/"
    before = written()
    # B's table by its key, on the floor's dealer page and the API; and the tablet's own page at
    # B's address.
    answers = [
        tablet.post(f"/cashgame/tables/{b.table.pk}/dealer/start/", {"seats": [1, 2]}),
        tablet.post(f"/api/cashgame/tables/{b.table.pk}/hands/", {"seats": [1, 2]}),
        tablet.post(f"/api/cashgame/tables/{b.table.pk}/hands/", {"seats": [1, 2]}, HTTP_X_VENUE="two"),
        tablet.post("/v/two/tablet/start/", {"button_seat": "1"}),
    ]
    statuses = [(answer.status_code, answer.get("Location")) for answer in answers]
    # Each time sent back to its own page, or refused; at B's address its page keeps the address.
    assert statuses == [(302, "/tablet/"), (403, None), (403, None), (302, "/v/two/tablet/")]
    assert written() == before


def test_a_floor_member_of_a_moves_no_player_to_bs_table__VEN_1(sides):
    a, b = sides
    before = written()
    body = {"table": b.table.pk, "seat": 4}
    answer = json_client(a.floor).post(f"/api/cashgame/sessions/{a.session.pk}/move/", body)
    assert answer.status_code == 400
    assert "table" in answer.json()["detail"]
    # B's player, by his session's key: not found in A.
    answer = json_client(a.floor).post(
        f"/api/cashgame/sessions/{b.session.pk}/move/", {"table": a.spare.pk, "seat": 4}
    )
    assert answer.status_code == 404
    client = Client()
    client.force_login(a.floor)
    page = client.post(
        f"/cashgame/sessions/{a.session.pk}/move/", {"table": b.table.pk, "seat": 4}, follow=True
    )
    assert page.redirect_chain == [(f"/cashgame/tables/{a.table.pk}/", 302)]
    assert "Select a valid choice" in page.content.decode()
    assert written() == before
    sessions = PlayerSession.all_venues.filter(ended_at__isnull=True).order_by("pk")
    assert list(sessions.values_list("venue_id", "table_id", "seat")) == [
        (a.venue.pk, a.table.pk, 1),
        (b.venue.pk, b.table.pk, 1),
    ]


def test_a_floor_member_of_a_confirms_no_move_of_bs_tournament__VEN_1(sides):
    a, b = sides
    with venue_activate(b.venue):
        tournament = TournamentFactory(name="Casino Two Freezeout", status="running")
        entry, _other = seat_players(tournament, 2)
        slip = MoveSlip.objects.create(
            tournament=tournament,
            entry=entry,
            from_table=1,
            from_seat=1,
            to_table=2,
            to_seat=3,
            reason="balance",
            created_at=T0,
        )
    before = written()
    answer = json_client(a.floor).post(f"/api/tournaments/{tournament.pk}/slips/{slip.pk}/confirm/", {})
    assert answer.status_code == 404
    client = Client()
    client.force_login(a.floor)
    assert client.post(f"/tournaments/{tournament.pk}/slips/{slip.pk}/confirm/").status_code == 404
    assert client.post(f"/tournaments/{tournament.pk}/seating/confirm-moves/").status_code == 404
    assert written() == before
    slip.refresh_from_db()
    assert (slip.confirmed_at, slip.confirmed_by_id) == (None, None)


def test_a_cashier_of_a_closes_no_shift_of_b__VEN_1(sides):
    a, b = sides
    before = written()
    answer = json_client(a.cashier).post(
        f"/api/cashier/shifts/{b.shift.pk}/close/", {"counted_cents": 100_000}, HTTP_IDEMPOTENCY_KEY=key()
    )
    assert answer.status_code == 404
    client = Client()
    client.force_login(a.cashier)
    assert client.get(f"/cashier/shifts/{b.shift.pk}/close/").status_code == 404
    assert client.post(f"/cashier/shifts/{b.shift.pk}/close/", {"counted": "1000"}).status_code == 404
    assert client.post(f"/v/two/cashier/shifts/{b.shift.pk}/close/", {"counted": "1000"}).status_code == 403
    assert written() == before
    assert Shift.all_venues.get(pk=b.shift.pk).status == ShiftStatus.OPEN
