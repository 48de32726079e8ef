"""Everything the system holds about one player, machine-readable (GDP-1): the document a manager
hands the player on request, as JSON, and the same sections as CSV files.

The JSON follows the API's conventions: amounts are integer cents in fields named `*_cents`,
times ISO 8601 in the venue's time zone, choices by their stored value. The CSV files are for
spreadsheets, as the reports' are: amounts in EUR with two decimals (`amount` for
`amount_cents`), text cells made safe (cardroom.spreadsheet). The games' records are read
through the relations that point at the player (see players/selectors/data_rights.py), in every
venue of the operator (VEN-1): each row of a list names its venue.
"""

import json
from datetime import date, datetime
from urllib.parse import urlsplit

from django.utils import timezone

from cardroom.money import cents_to_decimal
from cardroom.selectors import venue_get
from cardroom.venues import venue_by_pk
from players.models import Player
from players.selectors.data_rights import player_audit_records, player_records

FORMAT = "cardroom.player-data/1"
SECTIONS = (
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
)
EXCLUSION_ACTIONS = ("player.exclude", "player.exclusion_lift", "player.refused")
EXCLUSION_KEYS = ("exclusion_status", "exclusion_reason", "excluded_from", "excluded_until", "purpose")


def _moment(value: datetime | None) -> str | None:
    return timezone.localtime(value).isoformat() if value else None


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _venue(venue_id: int) -> str:
    """The name of the venue a row belongs to (VEN-1: receipts and tables are numbered per venue)."""
    return venue_by_pk(venue_id).name


def _identity(player: Player) -> dict:
    return {
        "player_id": player.pk,
        "card_number": player.card_number,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "nickname": player.nickname,
        "date_of_birth": _day(player.date_of_birth),
        "id_document_type": player.id_document_type,
        "id_document_number": player.id_document_number,
        "id_verified_at": _moment(player.id_verified_at),
        "public_full_name": player.public_full_name,
        "notes": player.notes,
        "registered_at": _moment(player.created_at),
        "updated_at": _moment(player.updated_at),
        "erased_at": _moment(player.erased_at),
    }


def _sessions(player: Player) -> list[dict]:
    sessions = (
        player_records(player, "cash_sessions")
        .select_related("table", "table__game")
        .order_by("started_at", "pk")
    )
    return [
        {
            "venue": _venue(session.venue_id),
            "session_id": session.pk,
            "game": session.table.game.name,
            "table": session.table.number,
            "seat": session.seat,
            "state": session.state,
            "started_at": _moment(session.started_at),
            "ended_at": _moment(session.ended_at),
            "buy_in_cents": session.buy_in_cents,
            "top_up_cents": session.top_up_cents,
            "cash_out_cents": session.cash_out_cents,
        }
        for session in sessions
    ]


def _entries(player: Player) -> list[dict]:
    entries = (
        player_records(player, "tournament_entries")
        .select_related("tournament")
        .order_by("registered_at", "pk")
    )
    return [
        {
            "venue": _venue(entry.venue_id),
            "entry_id": entry.pk,
            "tournament": entry.tournament.name,
            "tournament_id": entry.tournament_id,
            "number": entry.number,
            "kind": entry.kind,
            "status": entry.status,
            "present": entry.present,
            "registered_at": _moment(entry.registered_at),
            "busted_at": _moment(entry.busted_at),
            "finish_place": entry.finish_place,
            "prize_cents": entry.prize_cents,
            "prize_paid": entry.prize_transaction_id is not None,
            "refund_cents": entry.refund_cents,
            "rebuys": entry.rebuys,
            "add_ons": entry.add_ons,
        }
        for entry in entries
    ]


def _transactions(player: Player) -> list[dict]:
    transactions = (
        player_records(player, "cashier_transactions")
        .order_by("created_at", "pk")
        .values(
            "receipt_number",
            "kind",
            "amount_cents",
            "method",
            "reference",
            "created_at",
            "posting__reversed_by",
            "venue_id",
        )
    )
    return [
        {
            "venue": _venue(row["venue_id"]),
            "receipt": row["receipt_number"],
            "kind": row["kind"],
            "amount_cents": row["amount_cents"],
            "method": row["method"],
            "for": row["reference"],
            "at": _moment(row["created_at"]),
            "reversed": row["posting__reversed_by"] is not None,
        }
        for row in transactions
    ]


def _jackpot_shares(player: Player) -> list[dict]:
    shares = player.jackpot_shares.select_related("claim").order_by("claim__created_at", "pk")
    return [
        {
            "venue": _venue(share.claim.venue_id),
            "role": share.role,
            "amount_cents": share.amount_cents,
            "won_at": _moment(share.claim.created_at),
            "paid_at": _moment(share.paid_at),
        }
        for share in shares
    ]


def _waiting(player: Player) -> list[dict]:
    entries = (
        player_records(player, "waiting_entries").select_related("game", "table").order_by("added_at", "pk")
    )
    return [
        {
            "venue": _venue(entry.venue_id),
            "game": entry.game.name,
            "source": entry.source,
            "status": entry.status,
            "nickname": entry.nickname,
            "phone": entry.phone,
            "added_at": _moment(entry.added_at),
            "checked_in_at": _moment(entry.checked_in_at),
            "called_at": _moment(entry.called_at),
            "table": entry.table.number if entry.table_id else None,
            "seat": entry.seat,
            "missed_calls": entry.missed_calls,
            "left_at": _moment(entry.closed_at),
        }
        for entry in entries
    ]


def _loyalty_points(player: Player) -> list[dict]:
    movements = player_records(player, "loyalty_movements").order_by("at", "pk")
    return [
        {
            "venue": _venue(movement.venue_id),
            "at": _moment(movement.at),
            "kind": movement.kind,
            "points": movement.points,
            "value_cents": movement.value_cents,
            "balance_after": movement.balance_after,
            "description": movement.description,
        }
        for movement in movements
    ]


def _notice_consents(player: Player) -> list[dict]:
    """His consents to notices (NOT-1): when, where, in which words, the SMS number, the phones
    subscribed (the push service's host, not the address's secret path) and the withdrawal."""
    consents = player.notice_consents.prefetch_related("subscriptions").order_by("given_at", "pk")
    return [
        {
            "given_at": _moment(consent.given_at),
            "given_on": consent.given_on,
            "language": consent.language,
            "consent_text": consent.consent_text,
            "sms_number": consent.sms_number,
            "phones": [urlsplit(phone.endpoint).hostname for phone in consent.subscriptions.all()],
            "withdrawn_at": _moment(consent.withdrawn_at),
        }
        for consent in consents
    ]


def _notices(player: Player) -> list[dict]:
    sent = [
        notice
        for consent in player.notice_consents.all()
        for notice in consent.notices(manager="all_venues").all()
    ]
    return [
        {
            "venue": _venue(notice.venue_id),
            "at": _moment(notice.created_at),
            "channel": notice.channel,
            "kind": notice.kind,
            "title": notice.title,
            "text": notice.body,
            "status": notice.status,
            "sent_at": _moment(notice.sent_at),
        }
        for notice in sorted(sent, key=lambda notice: (notice.created_at, notice.pk))
    ]


def _audit_row(record) -> dict:
    return {
        "venue": _venue(record.venue_id),
        "at": _moment(record.at),
        "staff": record.actor_name,
        "action": record.action,
        "object_type": record.object_type,
        "object_id": record.object_id,
        "object": record.object_repr,
        "before": record.before,
        "after": record.after,
        "note": record.note,
    }


def player_data_document(*, player: Player, now: datetime | None = None) -> dict:
    """The whole export (GDP-1) as one JSON-safe document, its sections in SECTIONS' order."""
    now = now or timezone.now()
    records = list(player_audit_records(player=player))
    checks = [
        {"verified_at": _moment(record.at), "verified_by": record.actor_name}
        for record in records
        if record.action == "player.verify_id"
    ]
    history = [
        {
            "at": _moment(record.at),
            "action": record.action,
            "staff": record.actor_name,
            **{key: value for key, value in (record.after or {}).items() if key in EXCLUSION_KEYS},
            "note": record.note,
        }
        for record in records
        if record.action in EXCLUSION_ACTIONS
    ]
    return {
        "format": FORMAT,
        "exported_at": _moment(now),
        "venue": venue_get().name,
        "currency": "EUR",
        "identity": _identity(player),
        "id_checks": checks,
        "sessions": _sessions(player),
        "entries": _entries(player),
        "transactions": _transactions(player),
        "jackpot_shares": _jackpot_shares(player),
        "waiting_lists": _waiting(player),
        "loyalty_points": _loyalty_points(player),
        "notice_consents": _notice_consents(player),
        "notices": _notices(player),
        "exclusions": {
            "status": player.exclusion_status,
            "reason": player.exclusion_reason,
            "excluded_from": _day(player.excluded_from),
            "excluded_until": _day(player.excluded_until),
            "history": history,
        },
        "audit_records": [_audit_row(record) for record in records],
    }


def _cell(key: str, value):
    """A CSV cell: cents as EUR, lists and objects as JSON text."""
    if key.endswith("_cents") and isinstance(value, int):
        return cents_to_decimal(value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


# The columns of each list's CSV file: the keys of its JSON items, so an empty list still has
# its header.
LIST_COLUMNS = {
    "id_checks": ["verified_at", "verified_by"],
    "sessions": [
        "venue", "session_id", "game", "table", "seat", "state", "started_at", "ended_at",
        "buy_in_cents", "top_up_cents", "cash_out_cents",
    ],
    "entries": [
        "venue", "entry_id", "tournament", "tournament_id", "number", "kind", "status", "present",
        "registered_at", "busted_at", "finish_place", "prize_cents", "prize_paid", "refund_cents",
        "rebuys", "add_ons",
    ],
    "transactions": ["venue", "receipt", "kind", "amount_cents", "method", "for", "at", "reversed"],
    "jackpot_shares": ["venue", "role", "amount_cents", "won_at", "paid_at"],
    "waiting_lists": [
        "venue", "game", "source", "status", "nickname", "phone", "added_at", "checked_in_at", "called_at",
        "table", "seat", "missed_calls", "left_at",
    ],
    "loyalty_points": ["venue", "at", "kind", "points", "value_cents", "balance_after", "description"],
    "notice_consents": [
        "given_at", "given_on", "language", "consent_text", "sms_number", "phones", "withdrawn_at",
    ],
    "notices": ["venue", "at", "channel", "kind", "title", "text", "status", "sent_at"],
    "audit_records": [
        "venue", "at", "staff", "action", "object_type", "object_id", "object", "before", "after", "note",
    ],
}  # fmt: skip


def _table(rows: list[dict], header: list[str]) -> tuple[list[str], list[list]]:
    columns = [key.removesuffix("_cents") for key in header]
    return columns, [[_cell(key, row.get(key)) for key in header] for row in rows]


def player_data_tables(document: dict) -> dict[str, tuple[list[str], list[list]]]:
    """The document's sections as CSV tables {file name: (header, rows)}: the identity as field
    and value, every list as one row per item with the JSON's keys as its columns."""
    identity = document["identity"]
    tables = {"identity": (["field", "value"], [[key, _cell(key, value)] for key, value in identity.items()])}
    exclusions = document["exclusions"]
    current = {key: value for key, value in exclusions.items() if key != "history"}
    tables["exclusions"] = (
        ["field", "value"],
        [
            *([key, value] for key, value in current.items()),
            ["history", _cell("history", exclusions["history"])],
        ],
    )
    for section, header in LIST_COLUMNS.items():
        tables[section] = _table(document[section], header)
    return {name: tables[name] for name in SECTIONS}
