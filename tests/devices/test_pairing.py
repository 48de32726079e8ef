"""Pairing a dealer tablet (ROL-2): a code shown once, that expires and pairs once; only hashes
are kept; a wrong code is refused with a clear error and writes nothing; unpairing revokes."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.roles import user_roles
from devices.middleware import COOKIE
from devices.models import Device, PairingCode
from devices.services import (
    PAIRING_CODE_MINUTES,
    code_hash,
    device_pair,
    device_unpair,
    normalise_code,
    pairing_code_create,
    token_hash,
)
from tests.devices.conftest import pair

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, int, int, int]:
    return (
        Device.objects.count(),
        PairingCode.objects.filter(used_at__isnull=False).count(),
        AuditRecord.objects.count(),
        get_user_model().objects.count(),
    )


def test_manager_page_shows_the_code_once_and_keeps_only_its_hash__ROL_2(client, manager, table12):
    client.force_login(manager)
    response = client.post("/tablets/", {"table": table12.pk})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    code = response.context["code"]
    assert len(code) == 9 and code[4] == "-"
    assert code in response.content.decode()
    pairing = PairingCode.objects.get()
    assert pairing.code_hash == code_hash(code) and normalise_code(code) not in pairing.code_hash
    assert pairing.expires_at - pairing.created_at == timedelta(minutes=PAIRING_CODE_MINUTES)
    # Shown once: the page itself never shows it again.
    assert code not in client.get("/tablets/").content.decode()
    record = AuditRecord.objects.get(action="devices.pairing_code_create")
    assert (record.actor, record.after["table"]) == (manager, 1)


def test_only_managers_create_pairing_codes__ROL_2(floor, table12):
    with pytest.raises(DomainError) as error:
        pairing_code_create(actor=floor, table=table12)
    assert error.value.rule == "ROL-1" and PairingCode.objects.count() == 0


def test_tablet_pairs_with_the_code_and_gets_a_device_cookie__ROL_2(manager, table12):
    now = timezone.now()
    _pairing, code = pairing_code_create(actor=manager, table=table12, now=now)
    client = Client()
    response = client.post("/tablet/pair/", {"code": code.lower().replace("-", " ")}, HTTP_USER_AGENT="Tab/1")
    assert (response.status_code, response["Location"]) == (302, "/tablet/")
    cookie = response.cookies[COOKIE]
    assert cookie["max-age"] == 400 * 24 * 3600 and cookie["httponly"] and cookie["samesite"] == "Lax"
    device = Device.objects.get()
    assert (device.table, device.paired_by, device.user_agent, device.is_paired) == (
        table12,
        manager,
        "Tab/1",
        True,
    )
    assert device.user.has_usable_password() is False and user_roles(device.user) == frozenset()
    assert PairingCode.objects.get().device == device
    record = AuditRecord.objects.get(action="devices.device_pair")
    assert (record.actor, record.after["table"], record.after["code_from"]) == (device.user, 1, "manager1")
    assert client.get("/tablet/").status_code == 200


def test_token_is_kept_hashed_only__ROL_2(manager, table12):
    _pairing, code = pairing_code_create(actor=manager, table=table12)
    device, token = device_pair(code=code)
    assert device.token_hash == token_hash(token) and token not in device.token_hash and len(token) >= 40


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (
            "WRONG-CODE",
            "The pairing code has 8 letters and digits (like ABCD-EFGH): check it and type it again.",
        ),
        ("ABCD-EFGH", "This pairing code is not right: check it, or ask a manager for a new one."),
        # Every error names the field, never a bare "This field is required.".
        ("", "Pairing code: type the 8 letters and digits the manager reads you."),
        ("ABCD-EFGH-ABCD-EFGH-X", "Pairing code: it has 8 letters and digits (like ABCD-EFGH)."),
    ],
)
def test_wrong_code_refused_with_a_clear_error_and_nothing_written__ROL_2(manager, table12, typed, message):
    pairing_code_create(actor=manager, table=table12)
    before = counts()
    client = Client()
    response = client.post("/tablet/pair/", {"code": typed})
    assert response.status_code == 400
    assert response.context["form"].errors["code"] == [message]
    assert message in response.content.decode()
    assert COOKIE not in response.cookies and counts() == before


def test_code_pairs_once__ROL_2(manager, table12):
    _pairing, code = pairing_code_create(actor=manager, table=table12)
    pair_once = device_pair(code=code)
    before = counts()
    with pytest.raises(DomainError) as error:
        device_pair(code=code)
    assert error.value.message == "This pairing code was used already: ask a manager for a new one."
    assert error.value.rule == "ROL-2" and counts() == before and pair_once[0].is_paired


def test_code_expires_after_ten_minutes__ROL_2(manager, table12):
    now = timezone.now()
    _pairing, code = pairing_code_create(actor=manager, table=table12, now=now)
    before = counts()
    with pytest.raises(DomainError) as error:
        device_pair(code=code, now=now + timedelta(minutes=10))
    assert error.value.code == "pairing_code_expired"
    assert (
        error.value.message
        == "This pairing code has expired (codes last 10 minutes): ask a manager for a new one."
    )
    assert counts() == before
    device, _token = device_pair(code=code, now=now + timedelta(minutes=9, seconds=59))
    assert device.is_paired


def test_new_tablet_for_a_table_unpairs_the_old_one__ROL_2(manager, table12):
    old = pair(Client(), manager=manager, table=table12)
    new = pair(Client(), manager=manager, table=table12)
    first, second = Device.objects.order_by("pk")
    assert (first.is_paired, second.is_paired) == (False, True)
    assert AuditRecord.objects.get(action="devices.device_unpair").after["reason"] == "replaced"
    assert old.get("/tablet/")["Location"] == "/tablet/pair/"
    assert new.get("/tablet/").status_code == 200


def test_unpair_revokes_the_tablet_at_its_next_request__ROL_2(client, manager, tablet):
    device = Device.objects.get()
    client.force_login(manager)
    response = client.post(f"/tablets/{device.pk}/unpair/")
    assert response.status_code == 302
    device.refresh_from_db()
    device.user.refresh_from_db()
    assert device.unpaired_by == manager and device.unpaired_at is not None and device.user.is_active is False
    record = AuditRecord.objects.get(action="devices.device_unpair")
    assert (record.actor, record.after["reason"]) == (manager, "manager")
    response = tablet.get("/tablet/")
    assert (response.status_code, response["Location"]) == (302, "/tablet/pair/")
    assert response.cookies[COOKIE].value == ""  # the dead cookie is deleted
    page = tablet.get("/tablet/pair/")
    assert "A manager unpaired this tablet: ask for a new pairing code." in page.content.decode()
    assert tablet.post("/tablet/start/")["Location"] == "/tablet/pair/"
    with pytest.raises(DomainError) as error:
        device_unpair(actor=manager, device=device)
    assert error.value.code == "device_unpaired_already"


def test_session_survives_a_restart__ROL_2(tablet):
    """A new browser process holding the same cookie (a restart) is still the table's tablet."""
    restarted = Client()
    restarted.cookies[COOKIE] = tablet.cookies[COOKIE].value
    response = restarted.get("/tablet/")
    assert response.status_code == 200 and response.context["table"].number == 1


def test_forged_cookie_opens_nothing__ROL_2(tablet):
    forged = Client()
    forged.cookies[COOKIE] = tablet.cookies[COOKIE].value[:-3] + "xyz"
    assert forged.get("/tablet/")["Location"] == "/tablet/pair/"


def test_guessing_codes_is_stopped_after_ten_wrong_ones__ROL_2(manager, table12):
    _pairing, code = pairing_code_create(actor=manager, table=table12)
    client = Client()
    for _ in range(10):
        assert client.post("/tablet/pair/", {"code": "ABCD-EFGH"}).status_code == 400
    before = counts()
    response = client.post("/tablet/pair/", {"code": code})
    assert response.status_code == 400 and COOKIE not in response.cookies and counts() == before
    assert (
        "Too many wrong codes from this tablet: wait 10 minutes, then try again." in response.content.decode()
    )
