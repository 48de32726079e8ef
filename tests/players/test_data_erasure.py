"""GDP-1: a player erased on request, the identity the law makes the room keep sealed and read
only by a manager who records why, then destroyed; each refusal writes nothing."""

import json
from datetime import date, timedelta

import pytest
from django.db import DatabaseError, connection, transaction

from cardroom.errors import DomainError, PermissionDenied
from cardroom.models import AuditRecord, AuditRedactionPermit
from cardroom.services import venue_update
from cashgame.models import WaitingEntry
from cashgame.services.waiting import waiting_add
from cashier.models import CashierTransaction, Entry, Posting
from players.models import PlayerErasure
from players.services import player_exclude, player_require_eligible, player_update
from players.services.data_rights import (
    identities_destroy,
    player_erase,
    player_identity_read,
)
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tests.players.history import (
    BORN,
    DOCUMENT,
    FIRST,
    LAST,
    NICK,
    OLD_NICK,
    PHONE,
    at,
    build_history,
    written,
)
from tests.tournaments.factories import TournamentFactory, seat_players
from tournaments.models import Entry as TournamentEntry

pytestmark = pytest.mark.django_db

# Every trace of Ján the erasure must take away (the card number is his old one, 100001).
TRACES = (FIRST, LAST, NICK, OLD_NICK, BORN.isoformat(), DOCUMENT, PHONE, "100001", "Prefers table 1")


@pytest.fixture
def history(floor, cashier, manager):
    return build_history(floor=floor, cashier=cashier, manager=manager)


def audit_text() -> str:
    """Everything the audit trail stores to display, as one text (JSON values undecoded)."""
    rows = AuditRecord.objects.order_by("pk").values_list("object_repr", "before", "after", "note")
    return json.dumps([list(row) for row in rows], ensure_ascii=False)


def test_erasure_pseudonymises_the_person_everywhere_and_keeps_the_books__GDP_1(history, manager):
    player = history.player
    ledger = (list(Posting.objects.order_by("pk").values()), list(Entry.objects.order_by("pk").values()))
    transactions = list(CashierTransaction.objects.order_by("pk").values())
    assert books_problems() == []
    assert [trace for trace in TRACES if trace not in audit_text()] == [PHONE]  # the trail never had it

    erasure = player_erase(actor=manager, player=player, request="Letter of 10 November", now=at(300))

    player.refresh_from_db()
    assert (player.first_name, player.last_name, player.nickname) == ("Anonym", str(player.pk), "")
    assert (player.date_of_birth, player.card_number) == (None, f"ANON-{player.pk}")
    assert (player.id_document_type, player.id_document_number, player.notes) == ("", "", "")
    assert (player.full_name, str(player), player.erased_at) == (
        f"Anonym {player.pk}",
        f"Anonym {player.pk}",
        at(300),
    )
    # The due diligence stays a fact: when and by whom the document was seen.
    assert player.id_verified_at == at(2)
    assert list(
        WaitingEntry.objects.filter(player=player).values_list("nickname", "phone", "join_address")
    ) == [
        ("", "", ""),
        ("", "", ""),
    ]
    text = audit_text()
    assert [trace for trace in TRACES if trace in text] == []
    assert "Horváthová" in text  # Eva's own records are hers
    # Who, when, what and which object: as they were.
    created = AuditRecord.objects.get(action="player.create", object_id=str(player.pk))
    assert (created.actor_name, created.at, created.object_repr) == ("cashier1", at(0), f"Anonym {player.pk}")
    assert created.after["first_name"] == "Anonym"
    assert (
        AuditRecord.objects.get(action="cashgame.waiting_join_remote").object_repr
        == f"Anonym {player.pk} · NLHE 1/2"
    )
    # Not a single posting, entry or transaction changed, and the books agree.
    assert (
        list(Posting.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
    ) == ledger
    assert list(CashierTransaction.objects.order_by("pk").values()) == transactions
    assert books_problems() == []
    # The identity the law makes the room keep: sealed until 5 years after the last transaction.
    assert (erasure.retain_until, erasure.destroyed_at, erasure.request) == (
        date(2031, 11, 10),
        None,
        "Letter of 10 November",
    )
    assert FIRST not in erasure.sealed_identity and LAST not in erasure.sealed_identity
    record = AuditRecord.objects.get(action="player.erase")
    assert (record.actor_name, record.object_repr, record.note) == (
        "manager1",
        f"Anonym {player.pk}",
        "Letter of 10 November",
    )
    assert record.after == {
        "identity": "sealed",
        "retain_until": "2031-11-10",
        "waiting_entries": 2,
        "audit_records_redacted": 12,  # 5 of the card, 4 of the lists, 3 of the entry
    }
    assert AuditRedactionPermit.objects.count() == 0


def test_sealed_identity_is_read_by_a_manager_who_records_why_and_the_reading_is_audited__GDP_1(
    history, manager, floor, cashier
):
    player = history.player
    player_erase(actor=manager, player=player, request="Letter", now=at(300))
    before = written()
    for actor in (floor, cashier):
        with pytest.raises(PermissionDenied):
            player_identity_read(actor=actor, player=player, reason="Police request 12/2026")
    with pytest.raises(DomainError) as error:
        player_identity_read(actor=manager, player=player, reason="   ")
    assert (error.value.code, error.value.rule) == ("reason_required", "GDP-1")
    assert written() == before

    identity = player_identity_read(
        actor=manager, player=player, reason="Police request 12/2026", now=at(400)
    )
    assert identity == {
        "player_id": player.pk,
        "identity": {
            "first_name": "Ján",
            "last_name": "Šťastný",
            "date_of_birth": "1980-03-04",
            "card_number": "100001",
            "id_document_type": "id_card",
            "id_document_number": "EA123456",
        },
        "earlier_identities": [],
        "id_verified_at": "2026-11-10T18:02:00+01:00",
        "id_verified_by": "cashier1",
        "last_transaction_at": "2026-11-10T20:10:00+01:00",
        "sealed_at": "2026-11-10T23:00:00+01:00",
    }
    record = AuditRecord.objects.get(action="player.identity_read")
    assert (record.actor, record.at, record.note, record.after) == (
        manager,
        at(400),
        "Police request 12/2026",
        {"retain_until": "2031-11-10"},
    )


def test_identity_destroyed_once_the_retention_is_over__GDP_1(history, manager):
    player = history.player
    player_erase(actor=manager, player=player, request="Letter", now=at(300))
    # The last transaction was on 10 November 2026: kept through 10 November 2031.
    assert identities_destroy(now=at(0) + timedelta(days=365 * 5)) == 0
    assert PlayerErasure.objects.get().is_sealed
    assert identities_destroy(now=at(0) + timedelta(days=365 * 5 + 3)) == 1
    erasure = PlayerErasure.objects.get()
    assert (erasure.sealed_identity, erasure.destroyed_at) == ("", at(0) + timedelta(days=365 * 5 + 3))
    record = AuditRecord.objects.get(action="player.identity_destroy")
    assert (record.actor_name, record.after) == ("system", {"retain_until": "2031-11-10"})
    assert identities_destroy(now=at(0) + timedelta(days=365 * 6)) == 0  # done once
    with pytest.raises(DomainError) as error:
        player_identity_read(actor=manager, player=player, reason="Audit")
    assert error.value.code == "nothing_sealed"


def test_nothing_kept_past_the_retention_of_the_last_transaction__GDP_1(history, manager, venue):
    venue_update(actor=manager, venue=venue, identity_retention_years=1)
    erasure = player_erase(
        actor=manager, player=history.player, request="Letter", now=at(0) + timedelta(days=366)
    )
    assert (erasure.sealed_identity, erasure.retain_until, erasure.destroyed_at) == (
        "",
        None,
        at(0) + timedelta(days=366),
    )
    assert AuditRecord.objects.get(action="player.erase").after["identity"] == "destroyed"


def test_a_player_who_never_moved_money_is_destroyed_at_once__GDP_1(manager):
    player = PlayerFactory(first_name="Pavol", last_name="Hruška")
    erasure = player_erase(actor=manager, player=player, request="Email", now=at(0))
    assert (erasure.sealed_identity, erasure.retain_until) == ("", None)


@pytest.mark.parametrize("unpaid", ["seated", "prize"])
def test_erasure_of_a_seated_or_owed_player_refused_and_nothing_written__GDP_1(
    floor, cashier, manager, unpaid
):
    history = build_history(
        floor=floor,
        cashier=cashier,
        manager=manager,
        cashed_out=unpaid != "seated",
        prize_paid=unpaid != "prize",
    )
    before = written()
    with pytest.raises(DomainError) as error:
        player_erase(actor=manager, player=history.player, request="Letter", now=at(300))
    expected = {
        "seated": (
            "erase_seated",
            "Seated at Table 1, seat 3: the player cashes out and leaves the table first.",
        ),
        "prize": ("erase_owed", "Owed a prize of 180.00 EUR in Friday Freezeout: the cage pays it first."),
    }[unpaid]
    assert (error.value.code, error.value.message, error.value.rule) == (*expected, "GDP-1")
    assert written() == before


def test_erasure_refused_while_excluded_waiting_playing_owed_or_erased_and_nothing_written__GDP_1(
    manager, floor, venue
):
    from tests.cashgame.conftest import make_game

    excluded = PlayerFactory()
    player_exclude(
        actor=manager, player=excluded, status="register", reason="Register", excluded_from=date(2026, 1, 1)
    )
    waiting = PlayerFactory()
    game = make_game()
    waiting_add(actor=floor, game=game, player=waiting, now=at(0))
    erased = PlayerFactory()
    player_erase(actor=manager, player=erased, request="Letter", now=at(0))
    (playing,) = seat_players(TournamentFactory(status="running"), 1)
    (refund,) = seat_players(TournamentFactory(status="cancelled"), 1)
    TournamentEntry.objects.filter(pk=refund.pk).update(status="refund_due", refund_cents=10_000)
    before = written()
    expected = {
        excluded.pk: ("erase_excluded", "On the exclusion list"),
        waiting.pk: (
            "erase_waiting",
            "On the waiting list for NLHE 1/2: take the player off the list first.",
        ),
        erased.pk: ("already_erased", "The personal data was erased on "),
        playing.player_id: ("erase_playing", f"Still in {playing.tournament.name} (entry 1): erase once"),
        refund.player_id: (
            "erase_owed",
            f"Owed a refund of 100.00 EUR for {refund.tournament.name}: the cage",
        ),
    }
    for player in (excluded, waiting, erased, playing.player, refund.player):
        with pytest.raises(DomainError) as error:
            player_erase(actor=manager, player=player, request="Letter", now=at(10))
        code, message = expected[player.pk]
        assert (error.value.code, error.value.rule) == (code, "GDP-1")
        assert error.value.message.startswith(message)
    with pytest.raises(DomainError) as error:
        player_erase(actor=manager, player=PlayerFactory(), request=" ", now=at(10))
    assert error.value.code == "request_required"
    with pytest.raises(PermissionDenied):
        player_erase(actor=floor, player=excluded, request="Letter")
    assert written()[:4] == (before[0], before[1], before[2], before[3])


def test_an_erased_card_takes_no_more_money_and_no_edit__GDP_1(manager, cashier):
    player = PlayerFactory()
    player_erase(actor=manager, player=player, request="Letter", now=at(0))
    player.refresh_from_db()
    with pytest.raises(DomainError) as error:
        player_require_eligible(actor=cashier, player=player, purpose="buy in")
    assert (error.value.code, error.value.rule) == ("player_erased", "GDP-1")
    with pytest.raises(DomainError) as error:
        player_update(actor=cashier, player=player, first_name="Ján")
    assert error.value.code == "player_erased"


def test_audit_trail_rewritten_only_through_a_permit_and_never_who_or_what__GDP_1(manager):
    from cardroom.services import audit_record

    record = audit_record(actor=manager, action="player.create", object_type="players.player", object_id=1)
    statements = {
        "without a permit": "UPDATE cardroom_auditrecord SET object_repr = 'x' WHERE id = %s",
        "the action": "UPDATE cardroom_auditrecord SET action = 'forged' WHERE id = %s",
        "the actor": "UPDATE cardroom_auditrecord SET actor_name = 'someone' WHERE id = %s",
        "a deletion": "DELETE FROM cardroom_auditrecord WHERE id = %s",
    }
    for name, statement in statements.items():
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            if name != "without a permit":
                AuditRedactionPermit.objects.create(record=record)
            cursor.execute(statement, [record.pk])
    with transaction.atomic(), connection.cursor() as cursor:
        AuditRedactionPermit.objects.create(record=record)
        cursor.execute("UPDATE cardroom_auditrecord SET object_repr = 'Anonym 1' WHERE id = %s", [record.pk])
    record.refresh_from_db()
    assert (record.object_repr, record.action, record.actor_name) == ("Anonym 1", "player.create", "manager1")


def test_retention_is_a_venue_setting_of_1_to_30_years__GDP_1(manager, venue):
    before = AuditRecord.objects.count()
    with pytest.raises(DomainError) as error:
        venue_update(actor=manager, venue=venue, identity_retention_years=0)
    assert (error.value.code, error.value.rule) == ("invalid_retention", "GDP-1")
    assert AuditRecord.objects.count() == before
    venue_update(actor=manager, venue=venue, identity_retention_years=10)
    record = AuditRecord.objects.get(action="venue.update")
    assert (record.before["identity_retention_years"], record.after["identity_retention_years"]) == (5, 10)


def test_the_hourly_task_and_the_command_destroy_what_is_due__GDP_1(manager, settings):
    from io import StringIO

    from django.core.management import call_command

    from players.tasks import identities_destroy as task

    assert settings.CELERY_BEAT_SCHEDULE["players-identities-destroy"]["task"] == "players.identities_destroy"
    player = PlayerFactory()
    erasure = player_erase(actor=manager, player=player, request="Letter", now=at(0))
    PlayerErasure.objects.filter(pk=erasure.pk).update(
        sealed_identity="sealed", retain_until=date(2020, 1, 1), destroyed_at=None
    )
    assert task() == 1
    assert PlayerErasure.objects.get().sealed_identity == ""
    output = StringIO()
    call_command("identities_destroy", stdout=output)
    assert output.getvalue() == "Sealed identities destroyed: 0\n"
