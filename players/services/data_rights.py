"""A player's data rights (GDP-1): the export of everything held about the person, the erasure
on request, the sealed identity the law makes the room keep (read only by a manager who records
why), and its destruction once the retention is over. Each is audited.

An erasure pseudonymises the person everywhere the system shows them: the player's card
(names, nickname, birth date, card and document numbers, notes), the waiting-list entries
(nicknames and phone numbers), and the audit trail's displayed values (players/services/
redaction.py). The rows stay: the ledger, the sessions and the entries point at the card, and
not a single posting changes. What the anti-money-laundering law makes the room keep (the
identity behind the due diligence and the ledger) is sealed (players/seal.py) until the venue's
`identity_retention_years` after the last transaction, then destroyed by the hourly task.

The register is the operator's (VEN-1): the export and the erasure cover the player's records in
every venue, whichever venue the manager works in.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record
from players.locks import player_for_update
from players.models import (
    PSEUDONYM_FIRST_NAME,
    Player,
    PlayerErasure,
    pseudonym_card_number,
    pseudonym_of,
)
from players.seal import seal, unseal
from players.selectors.data_export import SECTIONS, player_data_document
from players.selectors.data_rights import (
    erasure_refusals,
    identity_retained_until,
    last_transaction_at,
    player_audit_records,
    player_records,
)
from players.services.redaction import Redactor, Traces, audit_trail_redact, identity_traces

RULE = "GDP-1"
EXPORT_FORMATS = ("json", "csv", "xlsx")
# What the law makes the room keep of an identity: who the person is, and the document seen.
SEALED_FIELDS = (
    "first_name",
    "last_name",
    "date_of_birth",
    "card_number",
    "id_document_type",
    "id_document_number",
)
MAX_TEXT = 2000


def _text_required(text: str, *, code: str, message: str) -> str:
    text = (text or "").strip()
    if not text:
        raise DomainError(code, message, rule=RULE)
    if len(text) > MAX_TEXT:
        raise DomainError(code, _("Keep it under %d characters.") % MAX_TEXT, rule=RULE)
    return text


def player_data_export(*, actor, player: Player, data_format: str, now: datetime | None = None) -> dict:
    """Everything held about the player (players.selectors.data_export), for a manager; the
    export is audited with its format."""
    require_role(actor, *MANAGER_ROLES)
    if data_format not in EXPORT_FORMATS:
        raise DomainError("unknown_format", _("Export as JSON, CSV or XLSX."), rule=RULE)
    now = now or timezone.now()
    document = player_data_document(player=player, now=now)
    audit_record(
        actor=actor,
        action="player.export",
        obj=player,
        after={"format": data_format, "sections": [name for name in SECTIONS if document[name]]},
        now=now,
    )
    return document


def _sealed_identity(player: Player, *, former: list[dict], now: datetime) -> dict:
    current = {
        name: player.date_of_birth.isoformat() if name == "date_of_birth" else getattr(player, name)
        for name in SEALED_FIELDS
    }
    earlier = []
    for values in former:
        kept = {name: values.get(name) or "" for name in SEALED_FIELDS}
        if kept != current and kept not in earlier:
            earlier.append(kept)
    last = last_transaction_at(player)
    return {
        "player_id": player.pk,
        "identity": current,
        "earlier_identities": earlier,
        "id_verified_at": timezone.localtime(player.id_verified_at).isoformat()
        if player.id_verified_at
        else None,
        "id_verified_by": player.id_verified_by.get_username() if player.id_verified_by_id else None,
        "last_transaction_at": timezone.localtime(last).isoformat() if last else None,
        "sealed_at": timezone.localtime(now).isoformat(),
    }


@transaction.atomic
def player_erase(*, actor, player: Player, request: str, now: datetime | None = None) -> PlayerErasure:
    """Erase a player's personal data on the person's request (GDP-1). Refused, writing nothing,
    while the player is seated or playing, on a waiting list, owed money or excluded. Inside the
    retention period the identity is sealed rather than destroyed (`retain_until`)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    today = timezone.localdate(now)
    request = _text_required(
        request, code="request_required", message=_("Say how and when the player asked for the erasure.")
    )
    player = player_for_update(player.pk)
    refusals = erasure_refusals(player=player, today=today)
    if refusals:
        raise refusals[0]

    related = list(player_audit_records(player=player))
    traces = Traces()
    former = identity_traces(related)
    for values in [
        *former,
        {
            name: getattr(player, name)
            for name in ("first_name", "last_name", "nickname", "card_number", "id_document_number")
        },
    ]:
        traces.add_identity(values)
    if player.date_of_birth:
        traces.birth_dates.add(player.date_of_birth.isoformat())
    for nickname, phone in player_records(player, "waiting_entries").values_list("nickname", "phone"):
        if nickname:
            traces.nicknames.add(nickname)
        if phone:
            traces.phones.add(phone)
    # NOT-1: the SMS numbers he gave for his notices (the notices app is reached by relation).
    traces.phones.update(player.notice_consents.exclude(sms_number="").values_list("sms_number", flat=True))

    retain_until = identity_retained_until(player=player, today=today)
    sealed = seal(_sealed_identity(player, former=former, now=now)) if retain_until else ""

    pseudonym, card_number = pseudonym_of(player.pk), pseudonym_card_number(player.pk)
    redactor = Redactor.build(
        traces,
        pseudonym=pseudonym,
        card_number=card_number,
        first_name=PSEUDONYM_FIRST_NAME,
        last_name=str(player.pk),
    )
    redacted = audit_trail_redact(related=related, traces=traces, redactor=redactor)

    player.first_name, player.last_name, player.nickname = PSEUDONYM_FIRST_NAME, str(player.pk), ""
    player.date_of_birth = None
    player.card_number = card_number
    player.id_document_type = player.id_document_number = player.notes = ""
    player.public_full_name = False
    player.erased_at = now
    player.refresh_search_keys()
    player.save()
    waiting = player_records(player, "waiting_entries").update(nickname="", phone="", join_address="")
    _notices_end(player, now=now)
    erasure = PlayerErasure.objects.create(
        player=player,
        erased_at=now,
        erased_by=actor,
        request=request,
        sealed_identity=sealed,
        retain_until=retain_until,
        destroyed_at=None if sealed else now,
    )
    audit_record(
        actor=actor,
        action="player.erase",
        obj=player,
        after={
            "identity": "sealed" if sealed else "destroyed",
            "retain_until": retain_until,
            "waiting_entries": waiting,
            "audit_records_redacted": len(redacted),
        },
        note=request,
        now=now,
    )
    return erasure


def _notices_end(player: Player, *, now: datetime) -> None:
    """His notices (NOT-1) stop: consent withdrawn, SMS numbers and phones' push addresses gone."""
    consents = player.notice_consents.all()
    consents.filter(withdrawn_at__isnull=True).update(withdrawn_at=now)
    consents.update(sms_number="")
    for consent in consents:
        consent.subscriptions.update(
            ended_at=Coalesce("ended_at", Value(now)), endpoint="", p256dh="", auth=""
        )


@transaction.atomic
def player_identity_read(*, actor, player: Player, reason: str, now: datetime | None = None) -> dict:
    """Open an erased player's sealed identity (GDP-1): a manager only, with the reason recorded
    in the audit trail first; the identity is shown, never stored anywhere else."""
    require_role(actor, *MANAGER_ROLES)
    reason = _text_required(
        reason, code="reason_required", message=_("Give the reason for reading the sealed identity.")
    )
    erasure = PlayerErasure.objects.filter(player=player).first()
    if erasure is None or not erasure.is_sealed:
        raise DomainError(
            "nothing_sealed",
            _("No sealed identity is kept for this player."),
            rule=RULE,
            status_code=409,
        )
    identity = unseal(erasure.sealed_identity)
    audit_record(
        actor=actor,
        action="player.identity_read",
        obj=player,
        after={"retain_until": erasure.retain_until},
        note=reason,
        now=now,
    )
    return identity


@transaction.atomic
def identities_destroy(*, now: datetime | None = None) -> int:
    """Destroy the sealed identities whose retention ended before today (GDP-1); how many.
    Idempotent: the beat runs it hourly, and a destroyed seal is empty."""
    now = now or timezone.now()
    due = (
        PlayerErasure.objects.select_for_update(of=("self",))
        .filter(retain_until__lt=timezone.localdate(now))
        .exclude(sealed_identity="")
        .select_related("player")
        .order_by("pk")
    )
    destroyed = 0
    for erasure in due:
        erasure.sealed_identity = ""
        erasure.destroyed_at = now
        erasure.save(update_fields=["sealed_identity", "destroyed_at"])
        audit_record(
            actor=None,
            action="player.identity_destroy",
            obj=erasure.player,
            after={"retain_until": erasure.retain_until},
            now=now,
        )
        destroyed += 1
    return destroyed
