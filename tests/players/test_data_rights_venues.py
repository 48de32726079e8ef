"""VEN-1 and GDP-1: the player's data rights cover every venue's records of him (sessions,
transactions, waiting-list entries, audit records), whichever venue the manager works in; an
erasure is refused for what any venue still holds (a seat, a list, money owed)."""

import json
from datetime import date

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.venues import venue_activate
from cashgame.models import WaitingEntry
from cashgame.services.sessions import session_seat
from cashgame.services.waiting import waiting_remove
from cashgame.services.waiting_check_in import waiting_check_in
from cashgame.services.waiting_remote import waiting_join_remote
from cashier.models import Posting
from players.models import Player, PlayerErasure
from players.selectors.data_rights import erasure_refusals
from players.services import player_create
from players.services.data_rights import player_data_export, player_erase
from tests.cashgame.conftest import T0, at, key
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tests.two_venues import books_agree, books_problems_everywhere, staff, written
from tournaments.models import Entry
from tournaments.services.registration import entry_register

pytestmark = pytest.mark.django_db


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
