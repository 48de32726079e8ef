"""Writes of the shared kernel: the audit trail and the venue's settings."""

import zoneinfo
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, AuditRedactionPermit, Venue, VenueRole
from cardroom.money import MAX_CENTS
from cardroom.roles import ADMIN_ROLES, MANAGER_ROLES, ROLE_NAMES, require_role
from cardroom.venues import venue_cache_clear, venue_id_current

SYSTEM_ACTOR = "system"


def _json_safe(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Model):
        return value.pk
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def snapshot(instance: Model, fields: list[str]) -> dict[str, Any]:
    """The audited state of an object: the named fields, JSON-safe (FKs as their ids)."""
    return {name: _json_safe(getattr(instance, name)) for name in fields}


def audit_record(
    *,
    actor,
    action: str,
    obj: Model | None = None,
    object_type: str = "",
    object_id: str | int = "",
    before: dict | None = None,
    after: dict | None = None,
    note: str = "",
    now: datetime | None = None,
) -> AuditRecord:
    """Append one audit record. `actor` is a user, or None for the scheduled work ("system")."""
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = object_id or obj.pk
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditRecord.objects.create(
        # The venue of the object changed, else the venue the request or task works for.
        venue_id=getattr(obj, "venue_id", None) or venue_id_current(),
        at=now or timezone.now(),
        actor=user,
        actor_name=user.get_username() if user else SYSTEM_ACTOR,
        action=action,
        object_type=object_type,
        object_id=str(object_id or ""),
        object_repr=str(obj)[:200] if obj is not None else "",
        before=_json_safe(before) if before is not None else None,
        after=_json_safe(after) if after is not None else None,
        note=note,
    )


# What a redaction may rewrite of an audit record: the values it displays. Who, when, what and
# which object stay as they were (the database's guard refuses anything else).
REDACTABLE_FIELDS = ("object_repr", "before", "after", "note")


@transaction.atomic
def audit_records_redact(*, records: list[AuditRecord]) -> int:
    """Write back the displayed values of these audit records (their object label, before and
    after values and note, changed by the caller), through the one path the append-only guard
    admits: a permit per record, the update, and the permits removed, all in this transaction.
    The caller decides what to redact and audits that it did (GDP-1: an erased player's identity
    is replaced by the pseudonym); the number of records rewritten."""
    if not records:
        return 0
    for record in records:
        record.before = _json_safe(record.before) if record.before is not None else None
        record.after = _json_safe(record.after) if record.after is not None else None
        record.object_repr = (record.object_repr or "")[:200]
    AuditRedactionPermit.objects.bulk_create([AuditRedactionPermit(record=record) for record in records])
    # The records may be any venue's (VEN-1: a player's records follow him across the operator's
    # venues): the default manager would update the active venue's only.
    AuditRecord.all_venues.bulk_update(records, fields=list(REDACTABLE_FIELDS), batch_size=500)
    AuditRedactionPermit.objects.filter(record__in=[record.pk for record in records]).delete()
    return len(records)


VENUE_FIELDS = [
    "name",
    "time_zone",
    "smallest_chip_cents",
    "gaming_day_start_hour",
    "aml_threshold_cents",
    "confirm_threshold_cents",
    "recount_threshold_cents",
    "dealer_push_minutes",
    "identity_retention_years",
]


@transaction.atomic
def venue_update(*, actor, venue: Venue, now: datetime | None = None, **changes: Any) -> Venue:
    """Managers change the venue's settings; the change is audited with before and after."""
    require_role(actor, *MANAGER_ROLES)
    unknown = set(changes) - set(VENUE_FIELDS)
    if unknown:
        raise DomainError("unknown_field", _("Unknown venue setting: %s") % ", ".join(sorted(unknown)))
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    _validate_venue(changes)
    before = snapshot(venue, VENUE_FIELDS)
    for name, value in changes.items():
        setattr(venue, name, value)
    venue.save()
    venue_cache_clear()
    transaction.on_commit(venue_cache_clear)
    audit_record(
        actor=actor,
        action="venue.update",
        obj=venue,
        before=before,
        after=snapshot(venue, VENUE_FIELDS),
        now=now,
    )
    return venue


def _validate_venue(changes: dict[str, Any]) -> None:
    if "time_zone" in changes:
        try:
            zoneinfo.ZoneInfo(changes["time_zone"])
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise DomainError(
                "invalid_time_zone", _("Unknown time zone: %s") % changes["time_zone"]
            ) from None
    if "smallest_chip_cents" in changes and not 0 < changes["smallest_chip_cents"] <= 100_000:
        raise DomainError(
            "invalid_smallest_chip", _("The smallest chip must be more than 0.00 EUR."), rule="RAK-3"
        )
    if "gaming_day_start_hour" in changes and not 0 <= changes["gaming_day_start_hour"] <= 23:
        raise DomainError("invalid_hour", _("The gaming day start hour must be 0 to 23."), rule="PLY-2")
    if "aml_threshold_cents" in changes and changes["aml_threshold_cents"] <= 0:
        raise DomainError(
            "invalid_aml_threshold", _("The AML threshold must be more than 0.00 EUR."), rule="PLY-2"
        )
    if "confirm_threshold_cents" in changes and changes["confirm_threshold_cents"] <= 0:
        raise DomainError(
            "invalid_confirm_threshold", _("The confirm threshold must be more than 0.00 EUR."), rule="CAG-5"
        )
    if "recount_threshold_cents" in changes and not 0 <= changes["recount_threshold_cents"] <= MAX_CENTS:
        raise DomainError(
            "invalid_recount_threshold", _("The recount threshold is 0.00 EUR or more."), rule="CAG-3"
        )
    if "identity_retention_years" in changes and not 1 <= changes["identity_retention_years"] <= 30:
        raise DomainError(
            "invalid_retention",
            _("Keep identities 1 to 30 years after the last transaction."),
            rule="GDP-1",
        )
    if "name" in changes and not str(changes["name"]).strip():
        raise DomainError("invalid_name", _("The venue needs a name."))


def staff_role_grant(*, user, role: str, venue: Venue | None = None, actor=None) -> None:
    """Give a staff member a role in a venue (VEN-1; the active or default venue unless named).
    His Django groups follow (staff_groups_sync), for the admin site's model permissions. With
    an `actor` (an administrator's change) the grant is audited in the venue of the role."""
    if role not in ROLE_NAMES:
        raise DomainError("unknown_role", _("Unknown role: %s") % role, rule="ROL-1")
    venue_id = venue.pk if venue is not None else venue_id_current()
    row, created = VenueRole.objects.get_or_create(user=user, venue_id=venue_id, role=role)
    staff_groups_sync(user=user)
    if created and actor is not None:
        audit_record(actor=actor, action="staff.role_grant", obj=row, after=_role_snapshot(row))


def staff_role_revoke(*, user, role: str, venue: Venue, actor=None) -> None:
    """Take a staff member's role in a venue away (VEN-1). His Django group for the role goes
    too unless he holds the role in another venue. With an `actor`, audited in that venue."""
    row = VenueRole.objects.filter(user=user, venue=venue, role=role).first()
    if row is None:
        return
    if actor is not None:
        audit_record(actor=actor, action="staff.role_revoke", obj=row, before=_role_snapshot(row))
    row.delete()
    staff_groups_sync(user=user)


@transaction.atomic
def staff_roles_set(*, actor, user, roles: set[tuple[int, str]]) -> None:
    """Make a staff member's roles exactly `roles`, as (venue key, role) pairs (VEN-1): the
    administrator's form of roles per venue (the admin site's user page). Each grant and each
    revocation is audited in its venue; his Django groups follow."""
    require_role(actor, *ADMIN_ROLES)
    unknown = sorted({role for _venue, role in roles} - ROLE_NAMES)
    if unknown:
        raise DomainError("unknown_role", _("Unknown role: %s") % ", ".join(unknown), rule="ROL-1")
    held = set(VenueRole.objects.filter(user=user).values_list("venue_id", "role"))
    for venue_id, role in sorted(held - roles):
        staff_role_revoke(user=user, role=role, venue=Venue(pk=venue_id), actor=actor)
    for venue_id, role in sorted(roles - held):
        staff_role_grant(user=user, role=role, venue=Venue(pk=venue_id), actor=actor)
    staff_groups_sync(user=user)


def staff_groups_sync(*, user) -> None:
    """A staff member's role groups are the union of his roles in every venue (VEN-1): the admin
    site's model permissions go by groups, which know no venue. Groups that are not roles (the
    dealer tablets') are left as they are."""
    from django.contrib.auth.models import Group

    wanted = set(VenueRole.objects.filter(user=user).values_list("role", flat=True))
    current = set(user.groups.filter(name__in=ROLE_NAMES).values_list("name", flat=True))
    if wanted - current:
        user.groups.add(*Group.objects.filter(name__in=wanted - current))
    if current - wanted:
        user.groups.remove(*Group.objects.filter(name__in=current - wanted))
    user.__dict__.pop("_cardroom_venue_roles", None)


def _role_snapshot(row: VenueRole) -> dict:
    return {"user": row.user.get_username(), "venue": row.venue_id, "role": row.role}
