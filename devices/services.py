"""Pairing and unpairing dealer tablets, and the one thing a tablet does: log its table's hands
(ROL-2). Every write here leaves an audit record; the hand log audits the end and the void of a
hand itself (cashgame.services.hands), the start and the flop are audited here.

A tablet reaches these services only through devices.views, after devices.middleware found its
device by the cookie's token; each service takes the device, never a table, so a tablet cannot
name another table.
"""

import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import DEVICE_GROUP, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashgame.models import CashTable, Hand, HandStatus, VoidReason
from cashgame.services import hands
from devices.models import Device, PairingCode
from devices.selectors import tablet_state

PAIRING_CODE_MINUTES = 10
# No 0/O, 1/I/L: a code read off a screen and typed on a tablet is not misread. 8 letters of 31:
# about 8.5e11 codes, against a code that lives 10 minutes and pairs once.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
# Re-written at most this often: the tablet page is requested at every tap.
LAST_SEEN_EVERY = timedelta(minutes=1)


def _hmac(purpose: str, value: str) -> str:
    return salted_hmac(f"devices.{purpose}", value, algorithm="sha256").hexdigest()


def normalise_code(code: str) -> str:
    """What a person types ("abcd-efgh", "ABCD EFGH") as the code itself."""
    return "".join(ch for ch in (code or "").upper() if ch not in " -\t")


def code_hash(code: str) -> str:
    return _hmac("pairing-code", normalise_code(code))


def token_hash(token: str) -> str:
    return _hmac("device-token", token)


def format_code(code: str) -> str:
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


@transaction.atomic
def pairing_code_create(*, actor, table: CashTable, now: datetime | None = None) -> tuple[PairingCode, str]:
    """A new pairing code for `table`, returned once as text (shown to the manager, never kept)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    pairing = PairingCode.objects.create(
        table=table,
        code_hash=code_hash(code),
        created_by=actor,
        created_at=now,
        expires_at=now + timedelta(minutes=PAIRING_CODE_MINUTES),
    )
    audit_record(
        actor=actor,
        action="devices.pairing_code_create",
        obj=pairing,
        after={"table": table.number, "expires_at": pairing.expires_at},
        now=now,
    )
    return pairing, format_code(code)


def _refuse_code(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule="ROL-2", status_code=400)


def _device_user(table: CashTable):
    """The tablet's own user: no password, in the dealer-tablet group only (no staff role)."""
    user = get_user_model()(username=f"tablet-{table.number}-{secrets.token_hex(4)}", first_name=_("Tablet"))
    user.set_unusable_password()
    user.save()
    group, _created = Group.objects.get_or_create(name=DEVICE_GROUP)
    user.groups.add(group)
    return user


@transaction.atomic
def device_pair(*, code: str, user_agent: str = "", now: datetime | None = None) -> tuple[Device, str]:
    """The tablet typed a pairing code: it becomes its table's device. Returns the device and
    the token for its cookie (kept nowhere else). A wrong, used or expired code is refused and
    nothing is written. A tablet already paired to the table is unpaired (one per table)."""
    now = now or timezone.now()
    typed = normalise_code(code)
    if len(typed) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in typed):
        raise _refuse_code(
            "pairing_code_invalid",
            _("The pairing code has 8 letters and digits (like ABCD-EFGH): check it and type it again."),
        )
    # A code is unique across venues and names its table's venue: a tablet pairs wherever it
    # typed the code, and becomes a tablet of the code's venue (VEN-1).
    pairing = (
        PairingCode.all_venues.select_for_update(of=("self",))
        .select_related("table", "created_by")
        .filter(code_hash=code_hash(typed))
        .first()
    )
    if pairing is None:
        raise _refuse_code(
            "pairing_code_unknown",
            _("This pairing code is not right: check it, or ask a manager for a new one."),
        )
    if pairing.used_at is not None:
        raise _refuse_code(
            "pairing_code_used",
            _("This pairing code was used already: ask a manager for a new one."),
        )
    if pairing.expires_at <= now:
        raise _refuse_code(
            "pairing_code_expired",
            _("This pairing code has expired (codes last %(minutes)d minutes): ask a manager for a new one.")
            % {"minutes": PAIRING_CODE_MINUTES},
        )
    for old in Device.all_venues.select_for_update(of=("self",)).filter(
        table=pairing.table, unpaired_at__isnull=True
    ):
        _unpair(old, actor=pairing.created_by, now=now, reason="replaced")
    token = secrets.token_urlsafe(32)
    device = Device.all_venues.create(
        venue_id=pairing.venue_id,
        table=pairing.table,
        user=_device_user(pairing.table),
        token_hash=token_hash(token),
        paired_by=pairing.created_by,
        paired_at=now,
        last_seen_at=now,
        user_agent=user_agent[:200],
    )
    pairing.used_at = now
    pairing.device = device
    pairing.save(update_fields=["used_at", "device"])
    audit_record(
        actor=device.user,
        action="devices.device_pair",
        obj=device,
        after={
            "table": pairing.table.number,
            "code_from": pairing.created_by.get_username(),
            "user_agent": device.user_agent,
        },
        now=now,
    )
    return device, token


def _unpair(device: Device, *, actor, now: datetime, reason: str) -> Device:
    device.unpaired_at = now
    device.unpaired_by = actor
    device.save(update_fields=["unpaired_at", "unpaired_by"])
    # Its user can never log in (no password); inactive, no session of it is honoured either.
    type(device.user).objects.filter(pk=device.user_id).update(is_active=False)
    audit_record(
        actor=actor,
        action="devices.device_unpair",
        obj=device,
        before={"paired_at": device.paired_at},
        after={"unpaired_at": now, "reason": reason},
        now=now,
    )
    return device


@transaction.atomic
def device_unpair(*, actor, device: Device, now: datetime | None = None) -> Device:
    """A manager unpairs a tablet: its cookie opens nothing from the next request on."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    device = Device.objects.select_for_update(of=("self",)).select_related("table", "user").get(pk=device.pk)
    if device.unpaired_at is not None:
        raise DomainError(
            "device_unpaired_already", _("This tablet was unpaired already."), rule="ROL-2", status_code=409
        )
    return _unpair(device, actor=actor, now=now, reason="manager")


def device_seen(*, device: Device, now: datetime | None = None) -> None:
    """Note that the tablet was used (shown to managers), at most once a minute."""
    now = now or timezone.now()
    if device.last_seen_at is None or now - device.last_seen_at >= LAST_SEEN_EVERY:
        Device.objects.filter(pk=device.pk).update(last_seen_at=now)
        device.last_seen_at = now


def _hand_in_progress(device: Device) -> Hand:
    hand = Hand.objects.filter(table_id=device.table_id, status=HandStatus.IN_PROGRESS).first()
    if hand is None:
        raise DomainError(
            "no_hand",
            _("No hand is in progress at this table: start a new hand."),
            rule="RAK-1",
            status_code=409,
        )
    return hand


def tablet_hand_start(*, device: Device, button_seat: int | None, now: datetime | None = None) -> Hand:
    """New hand: every player in play at the tablet's table is dealt in (CSH-5, CSH-6 decide
    who is in play; at a new game's first hand everyone seated with chips who is not sitting
    out); the button where the dealer put it, else the next seat in play. At the game's first
    hand the button is drawn (HND-2): the dealer taps the seat that won the draw."""
    now = now or timezone.now()
    state = tablet_state(table=device.table)
    seats = [row["seat"] for row in state["seats"] if row["playing"]]
    if button_seat is None:
        button_seat = state["next_button"]
    if button_seat is None and state["button_draw"] and len(seats) > 1:
        raise DomainError(
            "button_not_drawn",
            _(
                "Button: draw for it (one card to each player, the highest card takes it), "
                "tap the seat that won the draw, then New hand."
            ),
            rule="HND-2",
        )
    with transaction.atomic():
        hand = hands.hand_start(
            actor=device.user, table=device.table, seats=seats, button_seat=button_seat, now=now
        )
        audit_record(
            actor=device.user,
            action="devices.tablet_hand_start",
            obj=hand,
            after={"seats": seats, "button_seat": button_seat, "device": device.pk},
            now=now,
        )
    return hand


def tablet_hand_flop(*, device: Device, now: datetime | None = None) -> Hand:
    now = now or timezone.now()
    with transaction.atomic():
        hand = hands.hand_flop(actor=device.user, hand=_hand_in_progress(device), now=now)
        audit_record(
            actor=device.user,
            action="devices.tablet_hand_flop",
            obj=hand,
            after={"device": device.pk},
            now=now,
        )
    return hand


def tablet_hand_end(
    *, device: Device, pot_cents: int, side_pots_cents: list[int] | None = None, now: datetime | None = None
) -> Hand:
    """End the hand with its pot: the rake and the drop as at the floor's dealer page (the hand
    log's own audit record names the tablet's user)."""
    return hands.hand_end(
        actor=device.user,
        hand=_hand_in_progress(device),
        pot_cents=pot_cents,
        side_pots_cents=side_pots_cents,
        now=now,
    )


def tablet_hand_void(
    *, device: Device, reason: str = VoidReason.MISDEAL, now: datetime | None = None
) -> Hand:
    return hands.hand_void(actor=device.user, hand=_hand_in_progress(device), reason=reason, now=now)
