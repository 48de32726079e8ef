"""GDP-1: everything the system holds about a player, exported as JSON and as CSV tables, for
managers only and audited."""

import json

import pytest

from cardroom.errors import PermissionDenied
from cardroom.models import AuditRecord
from cashier.models import Posting
from players.selectors.data_export import player_data_tables
from players.services.data_rights import player_data_export
from tests.players.history import at, build_history, written

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(floor, cashier, manager):
    return build_history(floor=floor, cashier=cashier, manager=manager)


def test_export_holds_everything_the_system_holds_about_the_player__GDP_1(history, manager):
    player, entry, session = history.player, history.entry, history.session
    document = player_data_export(actor=manager, player=player, data_format="json", now=at(200))
    assert document["format"] == "cardroom.player-data/1"
    assert document["exported_at"] == "2026-11-10T21:20:00+01:00"
    assert (document["venue"], document["currency"]) == ("Card Room", "EUR")
    assert document["identity"] == {
        "player_id": player.pk,
        "card_number": "100001",
        "first_name": "Ján",
        "last_name": "Šťastný",
        "nickname": "Kobra",
        "date_of_birth": "1980-03-04",
        "id_document_type": "id_card",
        "id_document_number": "EA123456",
        "id_verified_at": "2026-11-10T18:02:00+01:00",
        "public_full_name": False,
        "notes": "Prefers table 1",
        "registered_at": player.created_at.astimezone(at(0).tzinfo).isoformat(),
        "updated_at": player.updated_at.astimezone(at(0).tzinfo).isoformat(),
        "erased_at": None,
    }
    assert document["id_checks"] == [{"verified_at": "2026-11-10T18:02:00+01:00", "verified_by": "cashier1"}]
    assert document["sessions"] == [
        {
            "venue": "Card Room",
            "session_id": session.pk,
            "game": "NLHE 1/2",
            "table": 1,
            "seat": 3,
            "state": "ended",
            "started_at": "2026-11-10T18:20:00+01:00",
            "ended_at": "2026-11-10T19:20:00+01:00",
            "buy_in_cents": 15_000,
            "top_up_cents": 0,
            "cash_out_cents": 21_000,
        }
    ]
    assert document["entries"] == [
        {
            "venue": "Card Room",
            "entry_id": entry.pk,
            "tournament": "Friday Freezeout",
            "tournament_id": history.tournament.pk,
            "number": 1,
            "kind": "buy_in",
            "status": "active",
            "present": True,
            "registered_at": "2026-11-10T19:25:00+01:00",
            "busted_at": None,
            "finish_place": 1,
            "prize_cents": 18_000,
            "prize_paid": True,
            "refund_cents": None,
            "rebuys": 0,
            "add_ons": 0,
        }
    ]
    receipts = [
        (t["receipt"], t["kind"], t["amount_cents"], t["for"], t["at"]) for t in document["transactions"]
    ]
    assert receipts == [
        (2, "cash_buy_in", 15_000, f"table:{history.table.pk}", "2026-11-10T18:20:00+01:00"),
        (3, "cash_out", 21_000, f"table:{history.table.pk}", "2026-11-10T19:20:00+01:00"),
        (4, "tournament_buy_in", 10_000, f"tournament:{history.tournament.pk}", "2026-11-10T19:25:00+01:00"),
        (6, "prize_payout", 18_000, f"tournament:{history.tournament.pk}", "2026-11-10T20:10:00+01:00"),
    ]
    assert {(t["venue"], t["method"], t["reversed"]) for t in document["transactions"]} == {
        ("Card Room", "cash", False)
    }
    assert {r["venue"] for r in document["audit_records"]} == {"Card Room"}
    assert document["jackpot_shares"] == []
    assert document["waiting_lists"] == [
        {
            "venue": "Card Room",
            "game": "NLHE 1/2",
            "source": "remote",
            "status": "removed",
            "nickname": "Kobra",
            "phone": "+421905123456",
            "added_at": "2026-11-10T18:10:00+01:00",
            "checked_in_at": "2026-11-10T18:11:00+01:00",
            "called_at": None,
            "table": None,
            "seat": None,
            "missed_calls": 0,
            "left_at": "2026-11-10T18:12:00+01:00",
        },
        {
            "venue": "Card Room",
            "game": "NLHE 1/2",
            "source": "in_person",
            "status": "removed",
            "nickname": "",
            "phone": "",
            "added_at": "2026-11-10T18:13:00+01:00",
            "checked_in_at": None,
            "called_at": None,
            "table": None,
            "seat": None,
            "missed_calls": 0,
            "left_at": "2026-11-10T18:14:00+01:00",
        },
    ]
    assert document["exclusions"] == {
        "status": "none",
        "reason": "",
        "excluded_from": None,
        "excluded_until": None,
        "history": [
            {
                "at": "2026-11-10T18:03:00+01:00",
                "action": "player.exclude",
                "staff": "manager1",
                "exclusion_status": "self_excluded",
                "exclusion_reason": "Asked for a break",
                "excluded_from": "2026-11-10",
                "excluded_until": "2026-11-10",
                "note": "",
            },
            {
                "at": "2026-11-10T18:04:00+01:00",
                "action": "player.exclusion_lift",
                "staff": "manager1",
                "exclusion_status": "none",
                "exclusion_reason": "",
                "excluded_from": None,
                "excluded_until": None,
                "note": "Break over",
            },
        ],
    }
    # The postings by their keys, counted from this history's first (PostgreSQL's keys go on from
    # the tests before).
    first = Posting.objects.order_by("pk").values_list("pk", flat=True)[0]

    def posting(number: int, kind: str) -> str:
        return f"#{first + number - 1} {kind}"

    assert [(r["action"], r["object_type"], r["object"]) for r in document["audit_records"]] == [
        ("player.create", "players.player", "Ján Šťastný (Kobrík) #100001"),
        ("player.update", "players.player", "Ján Šťastný (Kobra) #100001"),
        ("player.verify_id", "players.player", "Ján Šťastný (Kobra) #100001"),
        ("player.exclude", "players.player", "Ján Šťastný (Kobra) #100001"),
        ("player.exclusion_lift", "players.player", "Ján Šťastný (Kobra) #100001"),
        ("cashgame.waiting_join_remote", "cashgame.waitingentry", "Kobra · NLHE 1/2"),
        ("cashgame.waiting_check_in", "cashgame.waitingentry", "Ján Šťastný · NLHE 1/2"),
        ("cashgame.waiting_remove", "cashgame.waitingentry", "Ján Šťastný · NLHE 1/2"),
        ("cashgame.waiting_remove", "cashgame.waitingentry", "Ján Šťastný · NLHE 1/2"),
        ("cashier.cash_buy_in", "cashier.posting", posting(3, "Cash-game buy-in")),
        ("cashier.cash_out", "cashier.posting", posting(4, "Cash-out")),
        ("cashier.tournament_buy_in", "cashier.posting", posting(5, "Tournament buy-in")),
        ("entry.register", "tournaments.entry", "#1 Ján Šťastný (Kobra) #100001"),
        ("entry.winner", "tournaments.entry", "#1 Ján Šťastný (Kobra) #100001"),
        ("cashier.prize_payout", "cashier.posting", posting(7, "Prize payout")),
        ("entry.prize_paid", "tournaments.entry", "#1 Ján Šťastný (Kobra) #100001"),
    ]
    assert document["audit_records"][1]["before"]["nickname"] == "Kobrík"
    assert document["audit_records"][1]["after"]["nickname"] == "Kobra"
    # Nothing of Eva, who shared the table and the tournament.
    assert "Horváthová" not in json.dumps(document, ensure_ascii=False)
    # The export is audited, with its format.
    record = AuditRecord.objects.get(action="player.export")
    assert (record.actor, record.object_id, record.after["format"]) == (manager, str(player.pk), "json")
    assert record.after["sections"] == [
        "identity",
        "id_checks",
        "sessions",
        "entries",
        "transactions",
        "waiting_lists",
        "exclusions",
        "audit_records",
    ]


def test_export_as_csv_tables_in_eur__GDP_1(history, manager):
    document = player_data_export(actor=manager, player=history.player, data_format="csv", now=at(200))
    tables = player_data_tables(document)
    assert list(tables) == [
        "identity",
        "id_checks",
        "sessions",
        "entries",
        "transactions",
        "jackpot_shares",
        "waiting_lists",
        "loyalty_points",
        "notice_consents",
        "notices",
        "exclusions",
        "audit_records",
    ]
    header, rows = tables["identity"]
    assert header == ["field", "value"]
    assert rows[:4] == [
        ["player_id", history.player.pk],
        ["card_number", "100001"],
        ["first_name", "Ján"],
        ["last_name", "Šťastný"],
    ]
    header, rows = tables["transactions"]
    assert header == ["venue", "receipt", "kind", "amount", "method", "for", "at", "reversed"]
    assert [(row[0], row[1], str(row[3])) for row in rows] == [
        ("Card Room", 2, "150.00"),
        ("Card Room", 3, "210.00"),
        ("Card Room", 4, "100.00"),
        ("Card Room", 6, "180.00"),
    ]
    header, rows = tables["sessions"]
    assert header[-3:] == ["buy_in", "top_up", "cash_out"]
    assert [str(value) for value in rows[0][-3:]] == ["150.00", "0.00", "210.00"]
    assert tables["jackpot_shares"] == (["venue", "role", "amount", "won_at", "paid_at"], [])
    header, rows = tables["audit_records"]
    assert json.loads(rows[1][header.index("before")])["nickname"] == "Kobrík"
    assert AuditRecord.objects.get(action="player.export").after["format"] == "csv"


def test_export_is_for_managers_only__GDP_1(history, floor, cashier):
    before = written()
    for actor in (floor, cashier):
        with pytest.raises(PermissionDenied):
            player_data_export(actor=actor, player=history.player, data_format="json")
    assert written() == before
