"""The dealer board's reads (DLR-1, DLR-2): who deals where since when, who is on a break until
when, who is free and next, the next push and the tables the plan leaves short. Also the one
line per table the floor view and the dealer tablets show. A fixed number of queries."""

from __future__ import annotations

import math
from datetime import datetime

from django.db.models import Q

from dealers.models import Assignment, AssignmentKind, Dealer, Push, PushKind, PushStatus, Shift
from dealers.selectors import open_tables, place_key, rotation_get

DEALING, ON_BREAK, FREE = "dealing", "break", "free"


def minutes_until(due: datetime, now: datetime) -> int:
    return max(0, math.ceil((due - now).total_seconds() / 60))


def _table_filter(keys: list[str] | None) -> Q:
    if keys is None:
        return Q()
    cash = [int(k[1:]) for k in keys if k.startswith("c")]
    tournament = [int(k[1:]) for k in keys if k.startswith("t")]
    return Q(cash_table_id__in=cash) | Q(tournament_table_id__in=tournament)


def _current(now: datetime, keys: list[str] | None = None) -> list[Assignment]:
    return list(
        Assignment.objects.filter(
            Q(until__isnull=True) | Q(kind=AssignmentKind.BREAK, since__lte=now, until__gt=now)
        )
        .filter(_table_filter(keys), shift__clocked_out_at__isnull=True)
        .select_related("dealer")
    )


def _pending(keys: list[str] | None = None) -> list[Push]:
    return list(
        Push.objects.filter(_table_filter(keys), status=PushStatus.PENDING)
        .select_related("dealer")
        .order_by("due_at", "pk")
    )


def table_dealers(*, now: datetime, keys: list[str] | None = None) -> dict[str, dict]:
    """Per table key ("c12", "t40"; all open tables, or `keys`): its dealer and since when, and
    the next push to it. Two queries (the floor view's drawing and the tablet read it)."""
    rows: dict[str, dict] = {}
    for assignment in _current(now, keys):
        key = place_key(assignment)
        if key:
            rows[key] = {"dealer": assignment.dealer.name, "since": assignment.since, "next": None}
    for push in _pending(keys):
        key = place_key(push)
        if push.kind == PushKind.DEAL and key:
            row = rows.setdefault(key, {"dealer": "", "since": None, "next": None})
            if row["next"] is None:
                row["next"] = {
                    "dealer": push.dealer.name,
                    "due": push.due_at,
                    "minutes": minutes_until(push.due_at, now),
                }
    return rows


def board_get(*, now: datetime) -> dict:
    """Everything the dealer board draws."""
    tables = open_tables()
    labels = {t.key: t.label for t in tables}
    current = _current(now)
    pending = _pending()
    shifts = list(Shift.objects.filter(clocked_out_at__isnull=True).select_related("dealer"))
    rotation = rotation_get()
    by_dealer: dict[int, Assignment] = {}
    for assignment in current:
        if assignment.dealer_id not in by_dealer or assignment.until is None:
            by_dealer[assignment.dealer_id] = assignment
    next_of: dict[int, Push] = {}
    for push in pending:
        next_of.setdefault(push.dealer_id, push)

    def target(push: Push) -> str:
        if push.kind == PushKind.DEAL:
            return labels.get(place_key(push), "")
        return ""

    def push_row(push: Push | None) -> dict | None:
        if push is None:
            return None
        return {
            "dealer": push.dealer.name,
            "kind": push.kind,
            "table": target(push),
            "due": push.due_at,
            "minutes": minutes_until(push.due_at, now),
        }

    dealers = []
    for shift in sorted(shifts, key=lambda s: s.dealer.name):
        assignment = by_dealer.get(shift.dealer_id)
        if assignment is not None and assignment.kind == AssignmentKind.TABLE:
            state, place, since, until = (
                DEALING,
                labels.get(place_key(assignment), ""),
                assignment.since,
                None,
            )
        elif assignment is not None:
            state, place, since, until = ON_BREAK, "", assignment.since, assignment.until
        else:
            state, place, since, until = FREE, "", shift.clocked_in_at, None
        dealers.append(
            {
                "dealer": shift.dealer,
                "state": state,
                "table": place,
                "since": since,
                "until": until,
                "next": push_row(next_of.get(shift.dealer_id)),
            }
        )
    at_table = {place_key(a): a for a in current if a.kind == AssignmentKind.TABLE}
    table_rows = []
    for table in tables:
        assignment = at_table.get(table.key)
        incoming = next((p for p in pending if p.kind == PushKind.DEAL and place_key(p) == table.key), None)
        table_rows.append(
            {
                "table": table,
                "dealer": assignment.dealer.name if assignment else "",
                "since": assignment.since if assignment else None,
                "next": push_row(incoming),
            }
        )
    next_due = pending[0].due_at if pending else None
    order_of = {t.key: i for i, t in enumerate(tables)}
    round_rows = [
        push_row(p)
        for p in sorted(pending, key=lambda p: order_of.get(place_key(p), len(order_of)))
        if p.due_at == next_due and p.kind == PushKind.DEAL
    ]
    order = {DEALING: 2, ON_BREAK: 1, FREE: 0}
    waiting = sorted(
        (d for d in dealers if d["state"] != DEALING),
        key=lambda d: (
            d["next"] is None,
            d["next"]["due"] if d["next"] else now,
            order[d["state"]],
            d["dealer"].name,
        ),
    )
    return {
        "now": now,
        "tables": table_rows,
        "dealers": dealers,
        "waiting": waiting,
        "next_due": next_due,
        "next_minutes": minutes_until(next_due, now) if next_due else None,
        "round": round_rows,
        "gaps": [
            {
                "table": labels.get(g.get("key"), g["table"]),
                "kind": g["kind"],
                "start": datetime.fromisoformat(g["start"]),
                "end": datetime.fromisoformat(g["end"]),
                "minutes": minutes_until(
                    datetime.fromisoformat(g["end"]), datetime.fromisoformat(g["start"])
                ),
            }
            for g in rotation.gaps
            if datetime.fromisoformat(g["end"]) > now
        ],
        "off_shift": list(Dealer.objects.filter(active=True).exclude(pk__in=[s.dealer_id for s in shifts])),
    }
