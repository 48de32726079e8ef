from datetime import date

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from players.models import ExclusionStatus, Player
from players.selectors import player_search
from players.services import (
    player_create,
    player_exclude,
    player_exclusion_lift,
    player_require_eligible,
    player_update,
    player_verify_id,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def create(actor, **overrides):
    data = {
        "first_name": "Ján",
        "last_name": "Šťastný",
        "date_of_birth": date(1980, 3, 4),
        "id_document_type": "id_card",
        "id_document_number": "ea123456",
    }
    return player_create(actor=actor, **{**data, **overrides})


def test_create_assigns_card_number_and_audits__PLY_1(cashier):
    player = create(cashier)
    assert player.card_number == "100001"
    assert player.id_document_number == "EA123456"
    assert player.last_name_key == "stastny"
    record = AuditRecord.objects.get(action="player.create")
    assert record.actor == cashier
    assert record.after["last_name"] == "Šťastný"
    assert record.before is None
    assert create(cashier, first_name="Eva", id_document_number="X1").card_number == "100002"


def test_duplicate_by_name_and_birth_date_refused__PLY_1(cashier):
    first = create(cashier)
    with pytest.raises(DomainError) as error:
        create(cashier, first_name="JAN", last_name="stastny", id_document_number="OTHER1")
    assert error.value.code == "duplicate_player"
    assert error.value.rule == "PLY-1"
    assert first.card_number in error.value.message
    assert Player.objects.count() == 1


def test_duplicate_by_id_document_refused__PLY_1(cashier):
    create(cashier)
    with pytest.raises(DomainError) as error:
        create(
            cashier,
            first_name="Peter",
            last_name="Other",
            date_of_birth=date(1990, 1, 1),
            id_document_number="EA123456",
        )
    assert error.value.code == "duplicate_player"
    assert Player.objects.count() == 1


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"first_name": "  "}, "required"),
        ({"date_of_birth": date(2020, 1, 1)}, "invalid_date_of_birth"),
        ({"date_of_birth": date(1850, 1, 1)}, "invalid_date_of_birth"),
        ({"id_document_type": ""}, "incomplete_document"),
        ({"id_document_type": "bogus"}, "invalid_document_type"),
    ],
)
def test_bad_identity_refused_and_nothing_written__PLY_1(cashier, overrides, code):
    with pytest.raises(DomainError) as error:
        create(cashier, **overrides)
    assert error.value.code == code
    assert Player.objects.count() == 0
    assert AuditRecord.objects.count() == 0


def test_floor_may_create_but_only_manager_excludes__ROL_1(floor, manager):
    player = create(floor)
    with pytest.raises(DomainError) as error:
        player_exclude(
            actor=floor,
            player=player,
            status=ExclusionStatus.REGISTER,
            reason="x",
            excluded_from=date(2026, 1, 1),
        )
    assert error.value.status_code == 403
    assert error.value.rule == "ROL-1"
    player.refresh_from_db()
    assert player.exclusion_status == ExclusionStatus.NONE


def test_excluded_player_refused_and_refusal_logged__PLY_1(manager, cashier):
    player = create(cashier)
    player_exclude(
        actor=manager,
        player=player,
        status=ExclusionStatus.SELF_EXCLUDED,
        reason="Asked to be excluded",
        excluded_from=date(2026, 1, 1),
    )
    player.refresh_from_db()
    assert player.is_excluded_on(date(2026, 6, 1))
    assert not player.is_excluded_on(date(2025, 12, 31))
    with pytest.raises(DomainError) as error:
        player_require_eligible(actor=cashier, player=player, purpose="buy in")
    assert error.value.code == "player_excluded"
    assert error.value.rule == "PLY-1"
    refusal = AuditRecord.objects.get(action="player.refused")
    assert refusal.actor == cashier
    assert refusal.after == {"purpose": "buy in", "exclusion_status": "self_excluded"}


def test_exclusion_ends_after_until_date__PLY_1(manager, cashier):
    player = create(cashier)
    player_exclude(
        actor=manager,
        player=player,
        status=ExclusionStatus.REGISTER,
        reason="Register",
        excluded_from=date(2026, 1, 1),
        excluded_until=date(2026, 3, 31),
    )
    player.refresh_from_db()
    assert player.is_excluded_on(date(2026, 3, 31))
    assert not player.is_excluded_on(date(2026, 4, 1))


def test_exclusion_lift_audited_with_reason__PLY_1(manager, cashier):
    player = create(cashier)
    player_exclude(
        actor=manager,
        player=player,
        status=ExclusionStatus.REGISTER,
        reason="Register",
        excluded_from=date(2026, 1, 1),
    )
    player_exclusion_lift(actor=manager, player=player, reason="Removed from register")
    player.refresh_from_db()
    assert player.exclusion_status == ExclusionStatus.NONE
    record = AuditRecord.objects.get(action="player.exclusion_lift")
    assert record.before["exclusion_status"] == "register"
    assert record.after["exclusion_status"] == "none"
    assert record.note == "Removed from register"


def test_verify_id_then_document_change_resets_verification__PLY_2(cashier):
    player = create(cashier)
    player = player_verify_id(actor=cashier, player=player)
    assert player.id_verified
    assert player.id_verified_by == cashier
    player = player_update(actor=cashier, player=player, id_document_number="EA999999")
    assert not player.id_verified
    assert AuditRecord.objects.filter(action="player.update").count() == 1


def test_verify_without_document_refused__PLY_2(cashier):
    player = create(cashier, id_document_type="", id_document_number="")
    with pytest.raises(DomainError) as error:
        player_verify_id(actor=cashier, player=player)
    assert error.value.code == "no_document"
    player.refresh_from_db()
    assert player.id_verified_at is None


def test_search_by_card_name_and_nickname():
    a = PlayerFactory(first_name="Ján", last_name="Šťastný", nickname="Shark", card_number="123456")
    b = PlayerFactory(first_name="Peter", last_name="Stach", card_number="654321")
    PlayerFactory(first_name="Eva", last_name="Novak", card_number="111111")
    assert list(player_search(query="123456")) == [a]
    assert list(player_search(query="st")) == [b, a]  # ordered by last name key: stach, stastny
    assert list(player_search(query="shark")) == [a]
    assert list(player_search(query="jan st")) == [a]
    assert list(player_search(query="")) == []


def test_player_api_create_and_duplicate_409__PLY_1(api, cashier):
    client = api(cashier)
    body = {"first_name": "Ján", "last_name": "Novák", "date_of_birth": "1980-03-04"}
    response = client.post("/api/players/", body, format="json")
    assert response.status_code == 201
    assert response.json()["card_number"] == "100001"
    again = client.post("/api/players/", body, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_player"
    assert again.json()["rule"] == "PLY-1"
    assert Player.objects.count() == 1


def test_player_api_bad_date_is_400_not_500(api, cashier):
    response = api(cashier).post(
        "/api/players/", {"first_name": "A", "last_name": "B", "date_of_birth": "99999-01-01"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert Player.objects.count() == 0


def test_excluded_player_is_flagged_in_search_page__PLY_1(client, manager):
    player = PlayerFactory(
        last_name="Blocked",
        exclusion_status=ExclusionStatus.REGISTER,
        exclusion_reason="Register",
        excluded_from=date(2020, 1, 1),
    )
    client.force_login(manager)
    response = client.get("/players/", {"q": player.card_number})
    assert response.status_code == 200
    assert "EXCLUDED" in response.content.decode()
