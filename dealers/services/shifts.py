"""Dealers' shifts and hand-made assignments (DLR-1): clock in, clock out, send a dealer to a
table. Each takes the rotation's lock first, writes, audits, and settles the rotation at once
(the dealer sits down at a table waiting for one; the plan follows the new room)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.names import person_name_clean
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from dealers.models import Assignment, AssignmentKind, Dealer, Shift
from dealers.selectors import open_tables, place_key, table_label
from dealers.services.rotation import rotation_lock, settle_locked


@transaction.atomic
def dealer_create(*, actor, name: str, user=None) -> Dealer:
    require_role(actor, *MANAGER_ROLES)
    name = person_name_clean(name.strip(), label=_("Name"), rule="DLR-1")
    if not name or Dealer.objects.filter(name__iexact=name).exists():
        raise DomainError("dealer_name_taken", _("Give the dealer a name no other dealer has."), rule="DLR-1")
    dealer = Dealer.objects.create(name=name, user=user)
    audit_record(actor=actor, action="dealer.create", obj=dealer, after={"name": name})
    return dealer


def _open_shift(dealer: Dealer) -> Shift | None:
    return (
        Shift.objects.select_for_update(of=("self",))
        .filter(dealer=dealer, clocked_out_at__isnull=True)
        .first()
    )


@transaction.atomic
def shift_clock_in(*, actor, dealer: Dealer, now: datetime | None = None) -> Shift:
    """The dealer starts his shift; he takes a table waiting for a dealer at once (DLR-1)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    rotation = rotation_lock()
    if not dealer.active:
        raise DomainError(
            "dealer_inactive", _("%(name)s is no longer a dealer here.") % {"name": dealer.name}, rule="DLR-1"
        )
    if _open_shift(dealer) is not None:
        raise DomainError(
            "dealer_clocked_in",
            _("%(name)s is clocked in already.") % {"name": dealer.name},
            rule="DLR-1",
            status_code=409,
        )
    shift = Shift.objects.create(dealer=dealer, clocked_in_at=now)
    audit_record(
        actor=actor,
        action="dealer.clock_in",
        obj=shift,
        after={"dealer": dealer.name, "clocked_in_at": now},
        now=now,
    )
    settle_locked(rotation, now=now, replan=True)
    return shift


@transaction.atomic
def shift_clock_out(*, actor, dealer: Dealer, now: datetime | None = None) -> Shift:
    """The dealer ends his shift: he leaves his table (another dealer takes it) or his break."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    rotation = rotation_lock()
    shift = _open_shift(dealer)
    if shift is None:
        raise DomainError(
            "dealer_not_clocked_in",
            _("%(name)s is not clocked in.") % {"name": dealer.name},
            rule="DLR-1",
            status_code=409,
        )
    place = _end_current(shift, now=now)
    shift.clocked_out_at = now
    shift.save(update_fields=["clocked_out_at"])
    audit_record(
        actor=actor,
        action="dealer.clock_out",
        obj=shift,
        before={"dealer": dealer.name, "table": table_label(place)},
        after={"dealer": dealer.name, "clocked_out_at": now},
        now=now,
    )
    settle_locked(rotation, now=now, replan=True)
    return shift


def _end_current(shift: Shift, *, now: datetime) -> str | None:
    """End the shift's current table or break at `now`; the table's key, if he was at one."""
    place = None
    for row in Assignment.objects.filter(shift=shift).filter(until__isnull=True) | Assignment.objects.filter(
        shift=shift, kind=AssignmentKind.BREAK, until__gt=now
    ):
        place = place_key(row) or place
        row.until = max(now, row.since)
        row.save(update_fields=["until"])
    return place


@transaction.atomic
def dealer_send(*, actor, dealer: Dealer, table_key: str, now: datetime | None = None) -> Assignment:
    """The floor sends a dealer to a table by hand (DLR-2). The dealer must be on shift and not
    on a break; the table open. A dealer already at that table goes to the free pool."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    rotation = rotation_lock()
    shift = _open_shift(dealer)
    if shift is None:
        raise DomainError(
            "dealer_not_clocked_in",
            _("%(name)s is not clocked in: clock the dealer in first.") % {"name": dealer.name},
            rule="DLR-2",
            status_code=409,
        )
    on_break = Assignment.objects.filter(
        shift=shift, kind=AssignmentKind.BREAK, since__lte=now, until__gt=now
    ).first()
    if on_break is not None:
        raise DomainError(
            "dealer_on_break",
            _("%(name)s is on a break until %(until)s; send another dealer.")
            % {"name": dealer.name, "until": timezone.localtime(on_break.until).strftime("%H:%M")},
            rule="DLR-2",
            status_code=409,
        )
    table = next((t for t in open_tables() if t.key == table_key), None)
    if table is None:
        raise DomainError("table_not_open", _("That table is not open."), rule="DLR-2", status_code=409)
    before = _end_current(shift, now=now)
    for row in Assignment.objects.filter(
        until__isnull=True, cash_table_id=table.cash_table_id, tournament_table_id=table.tournament_table_id
    ):
        row.until = now
        row.save(update_fields=["until"])
        audit_record(
            actor=actor,
            action="dealer.relieved",
            obj=row,
            before={"table": table_label(table.key)},
            after={"table": None},
            now=now,
        )
    assignment = Assignment.objects.create(
        shift=shift,
        dealer=dealer,
        kind=AssignmentKind.TABLE,
        cash_table_id=table.cash_table_id,
        tournament_table_id=table.tournament_table_id,
        since=now,
    )
    audit_record(
        actor=actor,
        action="dealer.send",
        obj=assignment,
        before={"dealer": dealer.name, "table": table_label(before)},
        after={"dealer": dealer.name, "table": table_label(table.key)},
        now=now,
    )
    settle_locked(rotation, now=now, replan=True)
    return assignment
