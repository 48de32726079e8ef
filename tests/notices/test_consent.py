"""NOT-1: consent recorded apart from any marketing consent and withdrawn on the same page;
forged push subscriptions and SMS numbers that are not numbers refused, nothing written."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from notices.models import NoticeConsent, PushSubscription
from notices.services import consent_give, consent_withdraw, subscription_add
from tests.cashgame.conftest import make_game
from tests.notices.conftest import phone_join
from tests.notices.push_service import LocalPushService

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 12, 6, 19, 30, tzinfo=UTC)
LATER = datetime(2026, 12, 6, 22, 5, tzinfo=UTC)
FCM = "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH"
KEYS = LocalPushService()  # only its keys: a valid P-256 point and a 16-byte secret


def written() -> tuple[int, int, int]:
    return NoticeConsent.objects.count(), PushSubscription.objects.count(), AuditRecord.objects.count()


def test_consent_recorded_with_its_words_and_withdrawn__NOT_1(member, member_token):
    with translation.override("sk"):
        consent = consent_give(
            where="me", token=member_token, consent=True, sms_number="0905 123 456", now=NOW
        )
    subscription = subscription_add(
        where="me", token=member_token, endpoint=FCM, p256dh=KEYS.p256dh, auth=KEYS.auth, now=NOW
    )
    consent.refresh_from_db()
    assert (consent.player, consent.given_at, consent.given_on, consent.language, consent.sms_number) == (
        member,
        NOW,
        "player_page",
        "sk",
        "0905123456",
    )
    assert consent.page_path == f"/room/me/{member_token}/"
    assert consent.consent_text.startswith("Upozornite ma na tomto telefóne, keď je moje miesto pripravené")
    assert consent.withdrawn_at is None
    assert (subscription.endpoint, subscription.language, subscription.ended_at) == (FCM, "en", None)

    withdrawn = consent_withdraw(where="me", token=member_token, now=LATER)
    subscription.refresh_from_db()
    assert (withdrawn.withdrawn_at, withdrawn.sms_number, subscription.ended_at) == (LATER, "", LATER)
    assert list(
        AuditRecord.objects.filter(action__startswith="notices.")
        .order_by("pk")
        .values_list("action", flat=True)
    ) == [
        "notices.consent_give",
        "notices.subscription_add",
        "notices.consent_withdraw",
    ]
    # A second withdrawal has nothing to withdraw; asking again makes a new record.
    with pytest.raises(DomainError) as error:
        consent_withdraw(where="me", token=member_token, now=LATER)
    assert (error.value.code, error.value.rule) == ("no_consent", "NOT-1")
    again = consent_give(where="me", token=member_token, consent=True, now=LATER)
    assert again.pk != consent.pk and NoticeConsent.objects.count() == 2


def test_a_phone_joiner_consents_for_his_entries__NOT_1(db):
    entry, token = phone_join(make_game())
    consent = consent_give(where="wait", token=token, consent=True, now=NOW)
    assert (consent.player, list(consent.entries.all()), consent.given_on) == (None, [entry], "waiting_page")
    assert consent.page_path == f"/wait/s/{token}/"


def test_consent_needs_the_box_ticked_and_a_real_link__NOT_1(member_token):
    before = written()
    with pytest.raises(DomainError) as unticked:
        consent_give(where="me", token=member_token, consent=False, now=NOW)
    with pytest.raises(DomainError) as forged:
        consent_give(where="me", token=member_token + "x", consent=True, now=NOW)
    assert (unticked.value.code, unticked.value.rule) == ("consent_required", "NOT-1")
    assert (forged.value.code, forged.value.rule, forged.value.status_code) == ("link_invalid", "NOT-1", 404)
    assert written() == before


@pytest.mark.parametrize("number", ["call me", "+421 905 12x 456", "12345", "+4219051234567890", "0905;DROP"])
def test_an_sms_number_that_is_not_a_number_is_refused__NOT_1(member_token, number):
    before = written()
    with pytest.raises(DomainError) as error:
        consent_give(where="me", token=member_token, consent=True, sms_number=number, now=NOW)
    assert (error.value.code, error.value.rule) == ("invalid_phone", "NOT-1")
    assert written() == before


FORGED = [
    "http://fcm.googleapis.com/fcm/send/abc",  # not https
    "https://localhost/push",
    "https://127.0.0.1/push",
    "https://10.0.0.5/push",
    "https://[::1]/push",
    "https://169.254.169.254/latest/meta-data",
    "https://printer.local/push",
    "https://db.internal/push",
    "https://intranet/push",  # no dot: a name on the room's own network
    "https://user:secret@fcm.googleapis.com/push",
    "https://fcm.googleapis.com:8443/push",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "",
]


@pytest.mark.parametrize("endpoint", FORGED)
def test_a_forged_push_endpoint_is_refused__NOT_1(member_token, endpoint):
    consent_give(where="me", token=member_token, consent=True, now=NOW)
    before = written()
    with pytest.raises(DomainError) as error:
        subscription_add(
            where="me", token=member_token, endpoint=endpoint, p256dh=KEYS.p256dh, auth=KEYS.auth, now=NOW
        )
    assert (error.value.code, error.value.rule) == ("invalid_subscription", "NOT-1")
    assert written() == before


@pytest.mark.parametrize(
    "p256dh, auth",
    [
        ("B" + "A" * 86, KEYS.auth),  # the right length, not a point on the curve
        (KEYS.p256dh[:-4], KEYS.auth),  # too short
        (KEYS.p256dh, KEYS.auth[:-2]),  # 15-byte secret
        ("not base64 at all!!", KEYS.auth),
        (KEYS.p256dh, ""),
    ],
    # Named, not shown: the keys are new each run, and pytest-xdist's workers must collect the
    # same test names.
    ids=["not-on-the-curve", "key-too-short", "secret-of-15-bytes", "not-base64", "no-secret"],
)
def test_junk_push_keys_are_refused__NOT_1(member_token, p256dh, auth):
    consent_give(where="me", token=member_token, consent=True, now=NOW)
    before = written()
    with pytest.raises(DomainError) as error:
        subscription_add(where="me", token=member_token, endpoint=FCM, p256dh=p256dh, auth=auth, now=NOW)
    assert (error.value.code, error.value.rule) == ("invalid_subscription", "NOT-1")
    assert written() == before


def test_a_subscription_needs_consent_first__NOT_1(member_token):
    with pytest.raises(DomainError) as error:
        subscription_add(where="me", token=member_token, endpoint=FCM, p256dh=KEYS.p256dh, auth=KEYS.auth)
    assert (error.value.code, error.value.status_code) == ("consent_required", 409)
    assert written() == (0, 0, 0)


def test_the_page_gives_and_withdraws_consent__NOT_1(client, member, member_token):
    page = reverse("loyalty_room:me", args=[member_token])
    assert "Tell me on this phone" in client.get(page).text
    answer = client.post(
        reverse("notices:consent", args=["me", member_token]) + "?lang=sk",
        {"consent": "on", "sms_number": "+421 905 111 222"},
    )
    assert (answer.status_code, answer["Location"]) == (302, f"{page}?lang=sk#notices")
    consent = NoticeConsent.objects.get()
    assert (consent.language, consent.sms_number) == ("sk", "+421905111222")
    shown = client.get(page + "?lang=sk").text
    assert "Upozornenia sú zapnuté od" in shown and "Zastaviť upozornenia" in shown

    body = json.dumps({"endpoint": FCM, "keys": {"p256dh": KEYS.p256dh, "auth": KEYS.auth}})
    url = reverse("notices:subscription", args=["me", member_token])
    answer = client.post(url, body, content_type="application/json")
    assert (answer.status_code, answer.json()) == (201, {"subscribed": True})
    forged = json.dumps(
        {"endpoint": "http://127.0.0.1:6379/", "keys": {"p256dh": KEYS.p256dh, "auth": KEYS.auth}}
    )
    answer = client.post(url, forged, content_type="application/json")
    assert (answer.status_code, answer.json()["rule"]) == (400, "NOT-1")
    assert PushSubscription.objects.count() == 1

    client.post(reverse("notices:withdraw", args=["me", member_token]))
    consent.refresh_from_db()
    assert consent.withdrawn_at is not None
    assert "Tell me on this phone" in client.get(page).text


def test_a_bad_sms_number_on_the_page_is_shown_with_the_rule__NOT_1(client, member_token):
    client.post(reverse("notices:consent", args=["me", member_token]), {"consent": "on", "sms_number": "abc"})
    page = client.get(reverse("loyalty_room:me", args=[member_token])).text
    assert "Write the phone number in digits, e.g. +421 905 123 456." in page
    assert 'class="rule-link"' in page
    assert NoticeConsent.objects.count() == 0


@pytest.mark.parametrize("body", [b"{", b"[]", b'{"endpoint": 1, "keys": {}}', b'{"endpoint": "x"}', b"\x00"])
def test_a_malformed_subscription_body_gets_its_400_at_any_link__NOT_1(client, body):
    answer = client.post("/notices/me/forged-token/subscription/", body, content_type="application/json")
    assert (answer.status_code, answer.json()["code"], answer.json()["rule"]) == (
        400,
        "invalid_subscription",
        "NOT-1",
    )


def test_the_service_worker_may_cover_the_whole_site__NOT_1(client):
    answer = client.get(reverse("notices:service-worker"))
    assert (answer.status_code, answer["Content-Type"], answer["Service-Worker-Allowed"]) == (
        200,
        "application/javascript",
        "/",
    )
    assert "showNotification" in answer.text and "openWindow" in answer.text


def test_a_phone_joiners_consent_ends_a_day_after_his_lists__NOT_1_WTL_3(db):
    from cashgame.services.waiting_remote import waiting_leave
    from notices.services import consents_end_after_lists

    entry, token = phone_join(make_game())
    consent = consent_give(where="wait", token=token, consent=True, sms_number="+421905777888", now=NOW)
    subscription_add(where="wait", token=token, endpoint=FCM, p256dh=KEYS.p256dh, auth=KEYS.auth, now=NOW)
    assert consents_end_after_lists() == 0  # still on the list
    left = waiting_leave(token=token, entry_id=entry.pk)
    assert consents_end_after_lists(now=left.closed_at + timedelta(hours=23)) == 0
    assert consents_end_after_lists(now=left.closed_at + timedelta(hours=24)) == 1
    consent.refresh_from_db()
    assert (consent.withdrawn_at, consent.sms_number) == (left.closed_at + timedelta(hours=24), "")
    assert PushSubscription.objects.get().ended_at == left.closed_at + timedelta(hours=24)
    assert consents_end_after_lists(now=left.closed_at + timedelta(hours=25)) == 0


def test_an_erased_player_gets_no_more_notices__NOT_1_GDP_1(manager, member, member_token):
    from players.services.data_rights import player_erase

    consent = consent_give(where="me", token=member_token, consent=True, sms_number="+421905333444", now=NOW)
    subscription_add(
        where="me", token=member_token, endpoint=FCM, p256dh=KEYS.p256dh, auth=KEYS.auth, now=NOW
    )
    player_erase(actor=manager, player=member, request="Letter of 1 December", now=LATER)
    consent.refresh_from_db()
    subscription = PushSubscription.objects.get()
    assert (consent.withdrawn_at, consent.sms_number) == (LATER, "")
    assert (subscription.ended_at, subscription.endpoint, subscription.p256dh, subscription.auth) == (
        LATER,
        "",
        "",
        "",
    )
    assert not AuditRecord.objects.filter(after__icontains="905333444").exists()
