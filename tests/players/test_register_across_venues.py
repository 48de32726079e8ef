"""VEN-1: the player register is the operator's. An exclusion entered in one venue refuses the
player in every venue, the refused try written in the audit trail of the venue where it
happened; the identification threshold counts the player's cash in all the venues; a person
registered in one venue is the same person in another; the player's data rights cover every
venue's records of him, whichever venue the manager works in."""

from datetime import date, datetime

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.venues import venue_activate
from cashgame.models import PlayerSession
from cashier.models import CashierTransaction
from players.models import Player
from players.services import player_create, player_exclude, player_verify_id
from tests.cashgame.conftest import BRATISLAVA, T0, at, key
from tests.conftest import api_client_for
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tests.two_venues import Room, books_agree, books_problems_everywhere, staff, written
from tournaments.models import Entry
from tournaments.services.registration import entry_register

pytestmark = pytest.mark.django_db


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
