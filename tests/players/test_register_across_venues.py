"""VEN-1: the player register is the operator's. An exclusion entered in one venue refuses the
player in every venue, the refused try written in the audit trail of the venue where it
happened; the identification threshold counts the player's cash in all the venues; a person
registered in one venue is the same person in another; the player's data rights cover every
venue's records of him, whichever venue the manager works in."""

import itertools
import json
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.venues import venue_activate
from cashgame.models import PlayerSession, WaitingEntry
from cashgame.services.sessions import session_buy_in, session_cash_out, session_seat
from cashgame.services.waiting import waiting_remove
from cashgame.services.waiting_remote import waiting_check_in, waiting_join_remote
from cashier.models import CashierTransaction, Posting
from cashier.services import shift_open
from players.models import Player, PlayerErasure
from players.selectors.data_rights import erasure_refusals
from players.services import player_create, player_exclude, player_verify_id
from players.services.data_rights import player_data_export, player_erase
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import api_client_for
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.factories import TournamentFactory
from tests.two_venues import books_agree, books_problems_everywhere, staff, venue_two, written
from tournaments.models import Entry
from tournaments.services.registration import entry_register

pytestmark = pytest.mark.django_db

BRATISLAVA = ZoneInfo("Europe/Bratislava")
T0 = datetime(2026, 11, 10, 18, 0, tzinfo=BRATISLAVA)
_keys = itertools.count(1)


def key() -> str:
    return f"ven-register-{next(_keys):06d}"


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


class Room:
    """One venue's cash game, open table and cashier's shift with chips in the cage."""

    def __init__(self, venue, *, cashier, max_buy_in: int = 300_000):
        self.venue = venue
        self.cashier = cashier
        with venue_activate(venue):
            self.game = make_game(max_buy_in=max_buy_in)
            self.table = make_table(self.game, 1)
            self.shift = shift_open(actor=cashier, opening_float_cents=500_000, now=at(-60))
            cage_stock(cashier, now=at(-60))

    def buy_in(self, player, cents: int, *, seat: int, when: datetime):
        with venue_activate(self.venue):
            return session_buy_in(
                actor=self.cashier,
                shift=self.shift,
                table=self.table,
                player=player,
                seat=seat,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )

    def register(self, player, cents: int, *, when: datetime):
        """A tournament's buy-in of `cents` (prize pool and fee) at this venue's cage."""
        with venue_activate(self.venue):
            tournament = TournamentFactory(
                start_at=when + timedelta(hours=1), prize_cents=cents - 1_000, fee_cents=1_000
            )
            return entry_register(
                actor=self.cashier,
                tournament=tournament,
                player=player,
                shift=self.shift,
                idempotency_key=key(),
                now=when,
            )

    def cash_out(self, session, cents: int, *, when: datetime):
        with venue_activate(self.venue):
            return session_cash_out(
                actor=self.cashier,
                shift=self.shift,
                session=session,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )


@pytest.fixture
def two(db):
    return venue_two()


@pytest.fixture
def rooms(venue, two):
    """Venue A (the first) and venue B, each with its own cashier."""
    cashier_a = staff("cashier-a", {venue: [Role.CASHIER]})
    cashier_b = staff("cashier-b", {two: [Role.CASHIER]})
    return Room(venue, cashier=cashier_a), Room(two, cashier=cashier_b)


def refusals() -> list[tuple[int, str, str]]:
    return list(
        AuditRecord.all_venues.filter(action="player.refused")
        .order_by("pk")
        .values_list("venue_id", "object_id", "after__purpose")
    )


def test_an_exclusion_entered_in_one_venue_refuses_the_player_in_the_other__VEN_1(
    venue, two, rooms, manager, client
):
    _room_a, room_b = rooms
    player = PlayerFactory(id_verified_at=T0)
    # The manager of venue A puts the player on the list, working in A.
    with venue_activate(venue):
        player_exclude(
            actor=manager,
            player=player,
            status="register",
            reason="Court order",
            excluded_from=date(2026, 11, 1),
            now=at(-30),
        )
    assert AuditRecord.all_venues.get(action="player.exclude").venue_id == venue.pk
    player.refresh_from_db()
    before = written()

    # The cash game's service, working in B.
    with pytest.raises(DomainError) as refused:
        room_b.buy_in(player, 20_000, seat=1, when=at(0))
    assert (refused.value.code, refused.value.rule) == ("player_excluded", "PLY-1")

    # The cash game's API of venue B, named in the X-Venue header.
    body = {
        "shift": room_b.shift.pk,
        "table": room_b.table.pk,
        "player": player.pk,
        "seat": 2,
        "amount_cents": 20_000,
        "idempotency_key": key(),
    }
    answer = api_client_for(room_b.cashier).post(
        "/api/cashgame/sessions/buy-in/", body, format="json", HTTP_X_VENUE="two"
    )
    assert (answer.status_code, answer.json()["code"], answer.json()["rule"]) == (
        403,
        "player_excluded",
        "PLY-1",
    )

    # The cage's desk of venue B, at its address.
    client.force_login(room_b.cashier)
    form = {
        "idempotency_key": key(),
        "table": room_b.table.pk,
        "player": player.card_number,
        "seat": 3,
        "amount": "200",
        "method": "cash",
    }
    page = client.post("/v/two/cashgame/desk/buy-in/", form)
    assert page.status_code == 200
    assert "is on the exclusion list" in page.content.decode()

    # The tournament registration at B's cage.
    with venue_activate(two):
        tournament = TournamentFactory(name="Casino Two Freezeout", start_at=at(90))
        with pytest.raises(DomainError) as refused:
            entry_register(
                actor=room_b.cashier,
                tournament=tournament,
                player=player,
                shift=room_b.shift,
                idempotency_key=key(),
                now=at(5),
            )
    assert (refused.value.code, refused.value.rule) == ("player_excluded", "PLY-1")

    # Nothing posted anywhere; each refused try is in venue B's trail, none in A's.
    refused_tries = 4
    posted = before[:3]
    assert written()[:3] == posted
    assert written()[3] == before[3] + refused_tries
    assert refusals() == [
        (two.pk, str(player.pk), "buy in"),
        (two.pk, str(player.pk), "buy in"),
        (two.pk, str(player.pk), "buy in"),
        (two.pk, str(player.pk), "register for a tournament"),
    ]
    assert Entry.all_venues.count() == 0
    assert PlayerSession.all_venues.count() == 0
    with venue_activate(venue):
        assert AuditRecord.objects.filter(action="player.refused").count() == 0
    with venue_activate(two):
        assert AuditRecord.objects.filter(action="player.refused").count() == refused_tries


def test_cash_in_two_venues_sums_to_the_identification_threshold__VEN_1_PLY_2(rooms):
    room_a, room_b = rooms
    player = PlayerFactory(id_verified_at=None)
    # 1,500.00 EUR in venue A: under the 2,000.00 EUR threshold.
    session_a = room_a.buy_in(player, 150_000, seat=1, when=at(0))
    before = written()
    # 600.00 EUR more in venue B the same gaming day (a tournament's buy-in at B's cage):
    # 2,100.00 EUR, so B wants the verified ID.
    with pytest.raises(DomainError) as refused:
        room_b.register(player, 60_000, when=at(30))
    assert (refused.value.code, refused.value.rule) == ("aml_id_required", "PLY-2")
    assert "2,100.00 EUR" in refused.value.message and "2,000.00 EUR" in refused.value.message
    assert written() == before
    # 400.00 EUR stays under it (1,900.00 EUR)...
    room_b.register(player, 40_000, when=at(31))
    # ... and A's cash-out of 1,500.00 EUR (3,400.00 EUR in the day) waits for the ID, which
    # B's cashier verifies: A then pays.
    before = written()
    with pytest.raises(DomainError) as refused:
        room_a.cash_out(session_a, 150_000, when=at(40))
    assert (refused.value.code, refused.value.rule) == ("aml_id_required", "PLY-2")
    assert written() == before
    with venue_activate(room_b.venue):
        player_verify_id(actor=room_b.cashier, player=player, now=at(41))
    room_a.cash_out(session_a, 150_000, when=at(42))
    amounts = sorted(CashierTransaction.all_venues.values_list("venue_id", "kind", "amount_cents"))
    assert amounts == sorted(
        [
            (room_a.venue.pk, "cash_buy_in", 150_000),
            (room_b.venue.pk, "tournament_buy_in", 40_000),
            (room_a.venue.pk, "cash_out", 150_000),
        ]
    )
    assert books_problems_everywhere() == books_agree()


def test_the_threshold_counts_the_gaming_day_of_the_venue_where_the_money_moves__VEN_1_PLY_2(venue, two):
    """Venue B's gaming day starts at 10:00, A's at 06:00: a cash-in at B at 12:00 counts every
    venue's cash since 10:00 (B's day), so A's buy-in at 08:00 is B's day before."""
    two.gaming_day_start_hour = 10
    two.save()
    room_a = Room(venue, cashier=staff("cashier-a", {venue: [Role.CASHIER]}))
    room_b = Room(two, cashier=staff("cashier-b", {two: [Role.CASHIER]}))
    player = PlayerFactory(id_verified_at=None)
    morning = datetime(2026, 11, 11, 8, 0, tzinfo=BRATISLAVA)
    session = room_a.buy_in(player, 150_000, seat=1, when=morning)
    # At B at noon: B's day began at 10:00, after A's buy-in, so 600.00 EUR is all B counts.
    room_b.register(player, 60_000, when=morning.replace(hour=12))
    # At A at 13:00: A's day began at 06:00 and holds both, so a 200.00 EUR cash-out makes
    # 2,300.00 EUR (A's alone would be 1,700.00 EUR).
    before = written()
    with pytest.raises(DomainError) as refused:
        room_a.cash_out(session, 20_000, when=morning.replace(hour=13))
    assert (refused.value.code, refused.value.rule) == ("aml_id_required", "PLY-2")
    assert "2,300.00 EUR" in refused.value.message
    assert written() == before


def test_a_person_registered_in_one_venue_is_found_again_in_the_other__VEN_1(venue, two, floor):
    floor_b = staff("floor-b", {two: [Role.FLOOR]})
    with venue_activate(venue):
        first = player_create(
            actor=floor,
            first_name="Ján",
            last_name="Šťastný",
            date_of_birth=date(1980, 3, 4),
            id_document_type="id_card",
            id_document_number="EA123456",
            now=at(0),
        )
    before = (Player.objects.count(), AuditRecord.all_venues.count())
    for name, document in (("Jan", "EB000001"), ("Peter", "EA123456")):
        with venue_activate(two), pytest.raises(DomainError) as refused:
            player_create(
                actor=floor_b,
                first_name=name,
                last_name="Stastny",
                date_of_birth=date(1980, 3, 4) if name == "Jan" else date(1970, 1, 1),
                id_document_type="id_card",
                id_document_number=document,
                now=at(1),
            )
        assert (refused.value.code, refused.value.rule) == ("duplicate_player", "PLY-1")
        assert str(first) in refused.value.message
    assert (Player.objects.count(), AuditRecord.all_venues.count()) == before
    # The card number is the operator's too: B's desk finds A's card.
    client_b = api_client_for(floor_b)
    answer = client_b.get("/api/players/", {"q": first.card_number}, HTTP_X_VENUE="two")
    assert answer.status_code == 200
    assert [row["id"] for row in answer.json()["results"]] == [first.pk]


@pytest.fixture
def travelled(venue, two, rooms):
    """A player who played cash in both venues and joined B's waiting list."""
    room_a, room_b = rooms
    player = player_create(
        actor=room_a.cashier,
        first_name="Ján",
        last_name="Šťastný",
        nickname="Kobra",
        date_of_birth=date(1980, 3, 4),
        id_document_type="id_card",
        id_document_number="EA123456",
        now=at(-20),
    )
    session_a = room_a.buy_in(player, 15_000, seat=1, when=at(0))
    room_a.cash_out(session_a, 15_000, when=at(60))
    floor_b = staff("floor-b", {two: [Role.FLOOR]})
    with venue_activate(two):
        (joined,), _token = waiting_join_remote(
            game_ids=[room_b.game.pk],
            nickname="Kobra",
            phone="+421905123456",
            address="192.0.2.7",
            now=at(70),
        )
        waiting_check_in(actor=floor_b, entry=joined, card_number=player.card_number, now=at(71))
    return player, room_a, room_b, floor_b


def test_export_covers_every_venue_while_working_in_one__VEN_1_GDP_1(venue, two, travelled):
    player, _room_a, room_b, _floor_b = travelled
    session_b = room_b.buy_in(player, 20_000, seat=4, when=at(90))
    manager_b = staff("manager-b", {two: [Role.MANAGER]})
    with venue_activate(two):
        document = player_data_export(actor=manager_b, player=player, data_format="json", now=at(100))
    assert [(row["venue"], row["table"], row["buy_in_cents"]) for row in document["sessions"]] == [
        ("Card Room", 1, 15_000),
        ("Casino Two", 1, 20_000),
    ]
    assert [row["session_id"] for row in document["sessions"]][1] == session_b.pk
    assert [
        (row["venue"], row["receipt"], row["kind"], row["amount_cents"]) for row in document["transactions"]
    ] == [
        ("Card Room", 1, "cash_buy_in", 15_000),
        ("Card Room", 2, "cash_out", 15_000),
        ("Casino Two", 1, "cash_buy_in", 20_000),
    ]
    assert [(row["venue"], row["phone"]) for row in document["waiting_lists"]] == [
        ("Casino Two", "+421905123456")
    ]
    assert [(row["venue"], row["action"]) for row in document["audit_records"]] == [
        ("Card Room", "player.create"),
        ("Card Room", "cashier.cash_buy_in"),
        ("Card Room", "cashier.cash_out"),
        ("Casino Two", "cashgame.waiting_join_remote"),
        ("Casino Two", "cashgame.waiting_check_in"),
        ("Casino Two", "cashier.cash_buy_in"),
    ]
    # The export is in the trail of the venue where the manager works.
    assert AuditRecord.all_venues.get(action="player.export").venue_id == two.pk


def test_erasure_in_one_venue_reaches_every_venues_records__VEN_1_GDP_1(venue, two, travelled):
    player, _room_a, _room_b, floor_b = travelled
    # Off B's list first (a listed player is not erased).
    entry = WaitingEntry.all_venues.get(player=player)
    with venue_activate(two):
        waiting_remove(actor=floor_b, entry=entry, now=at(80))
    manager_b = staff("manager-b", {two: [Role.MANAGER]})
    with venue_activate(two):
        player_erase(actor=manager_b, player=player, request="By letter of 1 December", now=at(120))
    player.refresh_from_db()
    assert (player.first_name, player.last_name) == ("Anonym", str(player.pk))
    # B's list entry lost its phone; A's trail no longer shows the person.
    assert list(WaitingEntry.all_venues.values_list("venue_id", "nickname", "phone")) == [(two.pk, "", "")]
    trail = json.dumps(
        list(AuditRecord.all_venues.values("venue_id", "object_repr", "before", "after", "note")),
        ensure_ascii=False,
    )
    assert "Šťastný" not in trail and "EA123456" not in trail and "+421905123456" not in trail
    card_a = AuditRecord.all_venues.get(action="player.create")
    assert card_a.venue_id == venue.pk and card_a.after["last_name"] == str(player.pk)
    # The identity is kept: the player's last transaction was at A.
    erasure = PlayerErasure.objects.get(player=player)
    assert erasure.retain_until == date(2031, 11, 10)
    assert AuditRecord.all_venues.get(action="player.erase").venue_id == two.pk
    assert books_problems_everywhere() == books_agree()


def test_erasure_refused_for_a_player_seated_or_listed_in_another_venue__VEN_1_GDP_1(venue, two, travelled):
    player, room_a, _room_b, _floor_b = travelled
    manager_b = staff("manager-b", {two: [Role.MANAGER]})
    floor_a = staff("floor-a", {venue: [Role.FLOOR]})
    with venue_activate(venue):
        session_seat(actor=floor_a, table=room_a.table, player=player, seat=5, now=at(95))
    before = (written(), list(Player.objects.values()), PlayerErasure.objects.count())
    with venue_activate(two), pytest.raises(DomainError) as refused:
        player_erase(actor=manager_b, player=player, request="By e-mail", now=at(100))
    assert (refused.value.code, refused.value.rule) == ("erase_seated", "GDP-1")
    with venue_activate(two):
        codes = [refusal.code for refusal in erasure_refusals(player=player)]
    # Seated at A, and on B's waiting list.
    assert codes == ["erase_seated", "erase_waiting"]
    assert (written(), list(Player.objects.values()), PlayerErasure.objects.count()) == before


def test_erasure_refused_while_venue_a_owes_a_prize_asked_in_venue_b__VEN_1_GDP_1(venue, two, rooms):
    room_a, _room_b = rooms
    player = PlayerFactory(id_verified_at=T0)
    with venue_activate(venue):
        tournament = TournamentFactory(name="Friday Freezeout", start_at=at(90))
        entry = entry_register(
            actor=room_a.cashier,
            tournament=tournament,
            player=player,
            shift=room_a.shift,
            idempotency_key=key(),
            now=at(5),
        )
    Entry.all_venues.filter(pk=entry.pk).update(prize_cents=18_000, status="busted", finish_place=1)
    tournament.__class__.all_venues.filter(pk=tournament.pk).update(status="finished")
    manager_b = staff("manager-b", {two: [Role.MANAGER]})
    before = (written(), PlayerErasure.objects.count())
    with venue_activate(two), pytest.raises(DomainError) as refused:
        player_erase(actor=manager_b, player=player, request="By e-mail", now=at(200))
    assert refused.value.code == "erase_owed"
    assert "180.00 EUR" in refused.value.message and "Friday Freezeout" in refused.value.message
    assert (written(), PlayerErasure.objects.count()) == before
    assert Posting.all_venues.count() == before[0][0]
