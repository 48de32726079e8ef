"""Writes of the shared kernel: the audit trail and the venue's settings."""

import re
import zoneinfo
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, AuditRedactionPermit, Venue, VenueRole
from cardroom.money import MAX_CENTS
from cardroom.roles import ADMIN_ROLES, MANAGER_ROLES, ROLE_NAMES, require_role
from cardroom.venues import venue_activate, venue_cache_clear, venue_id_current

SYSTEM_ACTOR = "system"


def _json_safe(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
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
    "slug",
    "host_names",
]
# The venue's address name: what /v/<address name>/ of its public pages says (VEN-1).
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")
# One label of a host name (RFC 1123): letters, digits and inner hyphens, at most 63.
_HOST_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
HOST_NAMES_MAX = 300  # Venue.host_names' length


@transaction.atomic
def venue_update(*, actor, venue: Venue, now: datetime | None = None, **changes: Any) -> Venue:
    """Managers change the venue's settings; the change is audited with before and after."""
    require_role(actor, *MANAGER_ROLES)
    unknown = set(changes) - set(VENUE_FIELDS)
    if unknown:
        raise DomainError("unknown_field", _("Unknown venue setting: %s") % ", ".join(sorted(unknown)))
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    _validate_venue(changes)
    changes = _venue_addresses_clean(changes, venue=venue)
    before = snapshot(venue, VENUE_FIELDS)
    for name, value in changes.items():
        setattr(venue, name, value)
    try:
        with transaction.atomic():
            venue.save()
    except IntegrityError:
        if before["slug"] == venue.slug:
            raise
        # Another manager took the address name between the check and the save.
        raise _slug_taken(venue.slug) from None
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


def _slug_taken(slug: str) -> DomainError:
    return DomainError(
        "slug_taken",
        _("The address name “%s” is another venue's already. Choose another one.") % slug,
        rule="VEN-1",
    )


def host_names_parse(text: str) -> list[str]:
    """Host names typed as "Room.example.com, casino-two.example.com": lowercase, in their
    order, each once; a refusal naming the first one that is no host name (a scheme, a path, a
    port or a character no host name has)."""
    hosts: list[str] = []
    for typed in (text or "").split(","):
        host = typed.strip().lower().rstrip(".")
        if not host:
            continue
        if "://" in host:
            raise DomainError(
                "invalid_host_name",
                _("Write the host name without http:// or https://: “%s”.") % typed.strip(),
                rule="VEN-1",
            )
        if "/" in host or ":" in host:
            raise DomainError(
                "invalid_host_name",
                _("A host name has no path and no port: “%s”.") % typed.strip(),
                rule="VEN-1",
            )
        if len(host) > 253 or not all(_HOST_LABEL.match(label) for label in host.split(".")):
            raise DomainError(
                "invalid_host_name",
                _("“%s” is not a host name: use letters, digits, hyphens and dots (room.example.com).")
                % typed.strip(),
                rule="VEN-1",
            )
        if host not in hosts:
            hosts.append(host)
    return hosts


def _venue_addresses_clean(changes: dict[str, Any], *, venue: Venue) -> dict[str, Any]:
    """The venue's address name and host names (VEN-1) as stored: lowercase, checked, and no
    other venue's, since an address picks exactly one venue."""
    changes = dict(changes)
    others = Venue.objects.exclude(pk=venue.pk)
    if "slug" in changes:
        slug = str(changes["slug"] or "").strip().lower()
        if not _SLUG.match(slug):
            raise DomainError(
                "invalid_slug",
                _(
                    "The address name “%s” may hold lowercase letters, digits and hyphens only, "
                    "at most 40, starting and ending with a letter or digit."
                )
                % changes["slug"],
                rule="VEN-1",
            )
        if others.filter(slug=slug).exists():
            raise _slug_taken(slug)
        changes["slug"] = slug
    if "host_names" in changes:
        hosts = host_names_parse(str(changes["host_names"] or ""))
        taken = {host: other for other in others for host in other.host_name_list()}
        for host in hosts:
            if host in taken:
                raise DomainError(
                    "host_name_taken",
                    _("The host name “%(host)s” is the address of %(venue)s already.")
                    % {"host": host, "venue": taken[host].name},
                    rule="VEN-1",
                )
        changes["host_names"] = ", ".join(hosts)
        if len(changes["host_names"]) > HOST_NAMES_MAX:
            raise DomainError(
                "invalid_host_name",
                _("The host names are at most %d characters together.") % HOST_NAMES_MAX,
                rule="VEN-1",
            )
    return changes


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


@transaction.atomic
def venue_create(*, actor, name: str, slug: str, time_zone: str = "Europe/Bratislava", now=None) -> Venue:
    """A new venue of the operator (VEN-1), with the house's default settings; its own chips are
    the chips app's (ops.services.venue_open does both)."""
    if actor is not None:
        require_role(actor, *ADMIN_ROLES)
    _validate_venue({"name": name, "time_zone": time_zone})
    slug = _venue_addresses_clean({"slug": slug}, venue=Venue())["slug"]  # no venue has it yet
    venue = Venue.objects.create(name=name.strip(), slug=slug, time_zone=time_zone)
    venue_cache_clear()
    transaction.on_commit(venue_cache_clear)
    with venue_activate(venue):  # the record is the new venue's
        audit_record(
            actor=actor,
            action="venue.create",
            obj=venue,
            after=snapshot(venue, VENUE_FIELDS),
            now=now,
        )
    return venue


def _role_snapshot(row: VenueRole) -> dict:
    return {"user": row.user.get_username(), "venue": row.venue_id, "role": row.role}
