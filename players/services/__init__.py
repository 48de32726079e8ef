"""Every write to the player registry. Each change of status is audited (PLY-1)."""

from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.names import person_name_clean
from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, require_role
from cardroom.services import audit_record, snapshot
from players.models import ExclusionStatus, IdDocumentType, Player, normalize

IDENTITY_FIELDS = [
    "first_name",
    "last_name",
    "nickname",
    "date_of_birth",
    "card_number",
    "id_document_type",
    "id_document_number",
    "notes",
    "public_full_name",
]
STATUS_FIELDS = [
    "id_verified_at",
    "id_verified_by",
    "exclusion_status",
    "exclusion_reason",
    "excluded_from",
    "excluded_until",
]
OLDEST_BIRTH_DATE = date(1900, 1, 1)
MINIMUM_AGE_YEARS = 18


def _refuse_erased(player: Player) -> None:
    """GDP-1: an erased card is a pseudonym kept for the books; nothing is done on it any more."""
    if player.erased_at is not None:
        raise DomainError(
            "player_erased",
            _("This card's personal data was erased: register the person again as a new player."),
            rule="GDP-1",
            status_code=409,
        )


def _validate_identity(data: dict, *, today: date) -> None:
    for field, label in (("first_name", _("First name")), ("last_name", _("Last name"))):
        if not str(data.get(field, "")).strip():
            raise DomainError("required", _("%s is required.") % label, rule="PLY-1")
    for field, label in (
        ("first_name", _("First name")),
        ("last_name", _("Last name")),
        ("nickname", _("Nickname")),
    ):
        person_name_clean(str(data.get(field, "")), label=label, rule="PLY-1")
    dob = data.get("date_of_birth")
    if not isinstance(dob, date):
        raise DomainError("required", _("Date of birth is required."), rule="PLY-1")
    adult_since = date(today.year - MINIMUM_AGE_YEARS, today.month, min(today.day, 28))
    if dob < OLDEST_BIRTH_DATE or dob > adult_since:
        raise DomainError(
            "invalid_date_of_birth",
            _("Date of birth %(dob)s is not possible for an adult player.") % {"dob": dob.isoformat()},
            rule="PLY-1",
        )
    doc_type, doc_number = data.get("id_document_type", ""), data.get("id_document_number", "")
    if doc_type and doc_type not in IdDocumentType.values:
        raise DomainError("invalid_document_type", _("Unknown ID document type."), rule="PLY-1")
    if bool(doc_type) != bool(doc_number):
        raise DomainError(
            "incomplete_document",
            _("Give both the ID document type and its number, or neither."),
            rule="PLY-1",
        )


def player_duplicates(
    *,
    first_name: str,
    last_name: str,
    date_of_birth: date,
    id_document_type: str = "",
    id_document_number: str = "",
    exclude_pk: int | None = None,
) -> list[Player]:
    """Players who look like the same person: same name and birth date, or same ID document."""
    same = Q(
        first_name_key=normalize(first_name),
        last_name_key=normalize(last_name),
        date_of_birth=date_of_birth,
    )
    if id_document_number:
        same |= Q(id_document_type=id_document_type, id_document_number=id_document_number)
    found = Player.objects.filter(same)
    if exclude_pk:
        found = found.exclude(pk=exclude_pk)
    return list(found[:5])


def _next_card_number() -> str:
    # Card numbers are six digits from 100001 up; the unique constraint settles a race.
    last = (
        Player.objects.filter(card_number__regex=r"^[0-9]{6}$")
        .order_by("-card_number")
        .values_list("card_number", flat=True)
        .first()
    )
    return str(int(last) + 1) if last else "100001"


def player_create(
    *,
    actor,
    first_name: str,
    last_name: str,
    date_of_birth: date,
    nickname: str = "",
    card_number: str = "",
    id_document_type: str = "",
    id_document_number: str = "",
    notes: str = "",
    public_full_name: bool = False,
    now: datetime | None = None,
) -> Player:
    """Register a person. Refuses a likely duplicate with a message naming the existing card."""
    require_role(actor, *PLAYER_DESK_ROLES)
    now = now or timezone.now()
    data = {
        "first_name": first_name.strip(),
        "last_name": last_name.strip(),
        "nickname": nickname.strip(),
        "date_of_birth": date_of_birth,
        "card_number": card_number.strip(),
        "id_document_type": id_document_type,
        "id_document_number": id_document_number.strip().upper(),
        "notes": notes,
        "public_full_name": bool(public_full_name),
    }
    _validate_identity(data, today=timezone.localdate(now))
    duplicates = player_duplicates(
        first_name=data["first_name"],
        last_name=data["last_name"],
        date_of_birth=date_of_birth,
        id_document_type=data["id_document_type"],
        id_document_number=data["id_document_number"],
    )
    if duplicates:
        raise DomainError(
            "duplicate_player",
            _("This person looks already registered: %(players)s. Open that card instead.")
            % {"players": "; ".join(str(p) for p in duplicates)},
            rule="PLY-1",
            status_code=409,
        )
    if data["card_number"] and Player.objects.filter(card_number=data["card_number"]).exists():
        raise DomainError(
            "duplicate_card",
            _("Card number %s is already used.") % data["card_number"],
            rule="PLY-1",
            status_code=409,
        )
    for _attempt in range(5):
        player = Player(**{**data, "card_number": data["card_number"] or _next_card_number()})
        player.refresh_search_keys()
        try:
            with transaction.atomic():
                player.save()
                audit_record(
                    actor=actor,
                    action="player.create",
                    obj=player,
                    after=snapshot(player, IDENTITY_FIELDS),
                    now=now,
                )
        except IntegrityError:
            if data["card_number"]:
                raise DomainError(
                    "duplicate_card",
                    _("Card number %s is already used.") % data["card_number"],
                    rule="PLY-1",
                    status_code=409,
                ) from None
            continue  # two desks took the same generated number at once: draw the next
        return player
    raise DomainError("card_number_busy", _("Could not assign a card number, try again."), status_code=409)


@transaction.atomic
def player_update(*, actor, player: Player, now: datetime | None = None, **changes) -> Player:
    """Edit identity fields (not the ID verification or exclusion: those have their own steps)."""
    require_role(actor, *PLAYER_DESK_ROLES)
    unknown = set(changes) - set(IDENTITY_FIELDS)
    if unknown:
        raise DomainError(
            "unknown_field", _("These fields cannot be edited here: %s") % ", ".join(sorted(unknown))
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_erased(player)
    before = snapshot(player, IDENTITY_FIELDS)
    data = {**before, "date_of_birth": player.date_of_birth, **changes}
    for key in ("first_name", "last_name", "nickname", "card_number", "id_document_number"):
        data[key] = str(data.get(key) or "").strip()
    data["id_document_number"] = data["id_document_number"].upper()
    _validate_identity(data, today=timezone.localdate(now or timezone.now()))
    duplicates = player_duplicates(
        first_name=data["first_name"],
        last_name=data["last_name"],
        date_of_birth=data["date_of_birth"],
        id_document_type=data["id_document_type"],
        id_document_number=data["id_document_number"],
        exclude_pk=player.pk,
    )
    if duplicates:
        raise DomainError(
            "duplicate_player",
            _("Another card has the same person: %s.") % "; ".join(str(p) for p in duplicates),
            rule="PLY-1",
            status_code=409,
        )
    if Player.objects.filter(card_number=data["card_number"]).exclude(pk=player.pk).exists():
        raise DomainError(
            "duplicate_card",
            _("Card number %s is already used.") % data["card_number"],
            rule="PLY-1",
            status_code=409,
        )
    document_changed = (data["id_document_type"], data["id_document_number"]) != (
        player.id_document_type,
        player.id_document_number,
    )
    for key in IDENTITY_FIELDS:
        setattr(player, key, data[key])
    if document_changed:
        # A new document has not been seen yet: its verification starts over (PLY-2).
        player.id_verified_at = None
        player.id_verified_by = None
    player.refresh_search_keys()
    player.save()
    audit_record(
        actor=actor,
        action="player.update",
        obj=player,
        before=before,
        after=snapshot(player, IDENTITY_FIELDS),
        now=now,
    )
    return player


@transaction.atomic
def player_verify_id(*, actor, player: Player, now: datetime | None = None) -> Player:
    """Record that a staff member saw the ID document on file (customer due diligence, PLY-2)."""
    require_role(actor, *PLAYER_DESK_ROLES)
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_erased(player)
    if not player.id_document_number:
        raise DomainError(
            "no_document", _("Enter the ID document type and number before verifying it."), rule="PLY-2"
        )
    before = snapshot(player, STATUS_FIELDS)
    player.id_verified_at = now or timezone.now()
    player.id_verified_by = actor
    player.save(update_fields=["id_verified_at", "id_verified_by", "updated_at"])
    audit_record(
        actor=actor,
        action="player.verify_id",
        obj=player,
        before=before,
        after=snapshot(player, STATUS_FIELDS),
        now=now,
    )
    return player


@transaction.atomic
def player_exclude(
    *,
    actor,
    player: Player,
    status: str,
    reason: str,
    excluded_from: date,
    excluded_until: date | None = None,
    now: datetime | None = None,
) -> Player:
    """Put a player on the exclusion list (PLY-1). Managers only; the reason is required."""
    require_role(actor, *MANAGER_ROLES)
    if status not in (ExclusionStatus.SELF_EXCLUDED, ExclusionStatus.REGISTER):
        raise DomainError("invalid_exclusion", _("Choose self-exclusion or the register."), rule="PLY-1")
    if not reason.strip():
        raise DomainError("reason_required", _("Give the reason for the exclusion."), rule="PLY-1")
    if excluded_until and excluded_until < excluded_from:
        raise DomainError("invalid_dates", _("The exclusion cannot end before it starts."), rule="PLY-1")
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_erased(player)
    before = snapshot(player, STATUS_FIELDS)
    player.exclusion_status = status
    player.exclusion_reason = reason.strip()
    player.excluded_from = excluded_from
    player.excluded_until = excluded_until
    player.save()
    audit_record(
        actor=actor,
        action="player.exclude",
        obj=player,
        before=before,
        after=snapshot(player, STATUS_FIELDS),
        now=now,
    )
    return player


@transaction.atomic
def player_exclusion_lift(*, actor, player: Player, reason: str, now: datetime | None = None) -> Player:
    require_role(actor, *MANAGER_ROLES)
    if not reason.strip():
        raise DomainError("reason_required", _("Give the reason for lifting the exclusion."), rule="PLY-1")
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.exclusion_status == ExclusionStatus.NONE:
        raise DomainError("not_excluded", _("This player is not excluded."), rule="PLY-1")
    before = snapshot(player, STATUS_FIELDS)
    player.exclusion_status = ExclusionStatus.NONE
    player.exclusion_reason = ""
    player.excluded_from = None
    player.excluded_until = None
    player.save()
    audit_record(
        actor=actor,
        action="player.exclusion_lift",
        obj=player,
        before=before,
        after=snapshot(player, STATUS_FIELDS),
        note=reason.strip(),
        now=now,
    )
    return player


def player_require_eligible(*, actor, player: Player, purpose: str, now: datetime | None = None) -> None:
    """PLY-1: refuse an excluded player, and log the refusal.

    Call it before opening the transaction that would post the money: the refusal record must
    survive the rollback of the refused request.
    """
    now = now or timezone.now()
    _refuse_erased(player)
    if player.is_excluded_on(timezone.localdate(now)):
        audit_record(
            actor=actor,
            action="player.refused",
            obj=player,
            after={"purpose": purpose, "exclusion_status": player.exclusion_status},
            now=now,
        )
        raise DomainError(
            "player_excluded",
            _("%(player)s is on the exclusion list (%(status)s) and cannot %(purpose)s.")
            % {
                "player": player.full_name,
                "status": player.get_exclusion_status_display(),
                "purpose": purpose,
            },
            rule="PLY-1",
            status_code=403,
        )
