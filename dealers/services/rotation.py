"""The rotation (DLR-2): the plan stored as pushes, the pushes carried out at their time.

Every write here holds the one `Rotation` row's lock (taken first, before any other row), so
the plan, the pushes and the assignments change one writer at a time. `rotation_settle` is the
one door: it carries out the pushes that are due (each round at its own time, replanning as of
that time, as the clock raises each level at its predecessor's end), replans when the room
changed (the open tables, the dealers on shift or the push interval: its fingerprint), and sends
the ETA message for the next push. The games never call it: the beat's reconciler does every 2
seconds, the dealers' own services at once. A push runs once: it is `pending` until carried out
under the lock, so a late, lost or duplicated message never skips or repeats it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cardroom.task_queue import send_on_commit
from cardroom.venues import venue_id_current
from cashgame.models import CashTable, TableStatus
from dealers.models import Assignment, AssignmentKind, Push, PushKind, PushStatus, Rotation, Shift
from dealers.selectors import (
    RoomTable,
    dealer_states,
    open_tables,
    place_key,
    room_fingerprint,
    rules_for,
    table_label,
)
from poker.rotation import BREAK, DEAL, plan
from tournaments.models import CLOCK_STARTED
from tournaments.models import Table as TournamentTable
from tournaments.models import TableStatus as TournamentTableStatus

# ETA messages stay well under half the broker's visibility timeout (STYLE.md); a push further
# off gets its message from the reconciler once it comes within range.
ETA_HORIZON = timedelta(minutes=25)
MAX_STEPS = 50  # rounds carried out in one settle (a worker back after hours catches up in steps)
KIND = {DEAL: PushKind.DEAL, BREAK: PushKind.BREAK}


def rotation_lock() -> Rotation:
    """The rotation's row under a lock: every write of the dealers' room holds it, taken first."""
    # One row per venue (VEN-1): the active venue's, else the default venue's.
    rotation, _created = Rotation.all_venues.get_or_create(venue_id=venue_id_current())
    return Rotation.all_venues.select_for_update(of=("self",)).get(pk=rotation.pk)


def _place(key: str | None, tables: dict[str, RoomTable]) -> dict:
    table = tables.get(key) if key else None
    return {
        "cash_table_id": table.cash_table_id if table else None,
        "tournament_table_id": table.tournament_table_id if table else None,
    }


def _label(key: str | None, tables: dict[str, RoomTable]) -> str:
    if key is None:
        return ""
    return tables[key].label if key in tables else key


def replan_locked(rotation: Rotation, *, at: datetime) -> Rotation:
    """Plan as of `at` from the room as it is; the pending pushes become the plan's first round.
    The caller holds the rotation's lock."""
    venue = venue_get()
    tables = open_tables()
    states = dealer_states(now=at)
    rules = rules_for(venue.dealer_push_minutes)
    result = plan(now=at, tables=[t.key for t in tables], dealers=states, rules=rules)
    by_key = {t.key: t for t in tables}
    Push.objects.filter(status=PushStatus.PENDING).delete()
    rotation.plan += 1
    Push.objects.bulk_create(
        Push(
            due_at=move.at,
            dealer_id=move.dealer,
            kind=KIND.get(move.kind, PushKind.FREE),
            break_until=move.until,
            plan=rotation.plan,
            **_place(move.table, by_key),
        )
        for move in result.first_round()
        if move.table is None or move.table in by_key
    )
    rotation.planned_at = at
    rotation.fingerprint = room_fingerprint(
        tables=tables, states=states, push_minutes=venue.dealer_push_minutes
    )
    rotation.next_push_at = result.next_push_at
    # The table's key: the board names it in the reader's language (the planner runs in none).
    rotation.gaps = [
        {
            "key": g.table,
            "table": _label(g.table, by_key),
            "kind": g.kind,
            "start": g.start.isoformat(),
            "end": g.end.isoformat(),
        }
        for g in result.gaps
    ]
    rotation.save()
    return rotation


def _table_open(push: Push) -> bool:
    if push.cash_table_id:
        return CashTable.objects.filter(pk=push.cash_table_id, status=TableStatus.OPEN).exists()
    return TournamentTable.objects.filter(
        pk=push.tournament_table_id, status=TournamentTableStatus.OPEN, tournament__status__in=CLOCK_STARTED
    ).exists()


def _carry_out_round(due_at: datetime, *, now: datetime) -> int:
    """Carry out the pending pushes due at `due_at`: everybody leaves, then everybody sits (a
    dealer may take the table another leaves in the same push). Each push is audited."""
    pushes = list(
        Push.objects.filter(status=PushStatus.PENDING, due_at=due_at).select_related("dealer").order_by("pk")
    )
    shifts = {s.dealer_id: s for s in Shift.objects.filter(clocked_out_at__isnull=True)}
    current = {
        a.dealer_id: a
        for a in Assignment.objects.filter(dealer_id__in=[p.dealer_id for p in pushes], until__isnull=True)
    }
    before = {p.pk: place_key(current[p.dealer_id]) if p.dealer_id in current else None for p in pushes}
    valid = [p for p in pushes if p.dealer_id in shifts]
    for push in valid:
        assignment = current.get(push.dealer_id)
        if assignment is not None:
            assignment.until = due_at
            assignment.save(update_fields=["until"])
    done = 0
    for push in pushes:
        ok = push in valid and (push.kind != PushKind.DEAL or _table_open(push))
        if ok and push.kind == PushKind.DEAL:
            taken = Assignment.objects.filter(
                until__isnull=True,
                cash_table_id=push.cash_table_id,
                tournament_table_id=push.tournament_table_id,
            ).exists()
            ok = not taken
        if ok:
            _sit(push, shifts[push.dealer_id], due_at)
            done += 1
        push.status = PushStatus.DONE if ok else PushStatus.SKIPPED
        push.done_at = now
        push.save(update_fields=["status", "done_at"])
        audit_record(
            actor=None,
            action="dealer.push" if ok else "dealer.push_skipped",
            obj=push,
            before={"dealer": push.dealer.name, "table": table_label(before[push.pk])},
            after={
                "dealer": push.dealer.name,
                "kind": push.kind,
                "table": table_label(place_key(push)),
                "due_at": due_at,
            },
            now=now,
        )
    return done


def _sit(push: Push, shift: Shift, at: datetime) -> None:
    if push.kind == PushKind.DEAL:
        Assignment.objects.create(
            shift=shift,
            dealer_id=push.dealer_id,
            kind=AssignmentKind.TABLE,
            cash_table_id=push.cash_table_id,
            tournament_table_id=push.tournament_table_id,
            since=at,
        )
    elif push.kind == PushKind.BREAK:
        Assignment.objects.create(
            shift=shift, dealer_id=push.dealer_id, kind=AssignmentKind.BREAK, since=at, until=push.break_until
        )


def settle_locked(rotation: Rotation, *, now: datetime, replan: bool = False) -> dict[str, int]:
    """Carry out what is due, replan when the room changed (or `replan`), send the next ETA
    message. The caller holds the rotation's lock."""
    rounds = pushes = plans = 0
    for _step in range(MAX_STEPS):
        due_at = (
            Push.objects.filter(status=PushStatus.PENDING, due_at__lte=now)
            .order_by("due_at")
            .values_list("due_at", flat=True)
            .first()
        )
        if due_at is not None:
            pushes += _carry_out_round(due_at, now=now)
            rounds += 1
            replan_locked(rotation, at=due_at)
            plans += 1
            continue
        if replan or _changed(rotation, now=now):
            replan_locked(rotation, at=now)
            plans += 1
            replan = False
            continue
        break
    _enqueue_eta(rotation, now=now)
    return {"rounds": rounds, "pushes": pushes, "plans": plans}


def _changed(rotation: Rotation, *, now: datetime) -> bool:
    fingerprint = room_fingerprint(
        tables=open_tables(), states=dealer_states(now=now), push_minutes=venue_get().dealer_push_minutes
    )
    return fingerprint != rotation.fingerprint


def _enqueue_eta(rotation: Rotation, *, now: datetime) -> None:
    """Send the ETA message for the next pending push, after commit, once it is near enough."""
    due_at = (
        Push.objects.filter(status=PushStatus.PENDING, due_at__gt=now)
        .order_by("due_at")
        .values_list("due_at", flat=True)
        .first()
    )
    if due_at is None or due_at - now > ETA_HORIZON or rotation.eta_at == due_at:
        return
    rotation.eta_at = due_at
    rotation.save(update_fields=["eta_at"])
    send_on_commit("dealers.push_due", eta=due_at, due=due_at.isoformat())


@transaction.atomic
def rotation_settle(*, now: datetime | None = None, replan: bool = False) -> dict[str, int]:
    """The beat's reconciler and the ETA task (DLR-2): idempotent, whatever the messages did."""
    now = now or timezone.now()
    return settle_locked(rotation_lock(), now=now, replan=replan)
