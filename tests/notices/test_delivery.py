"""NOT-1: a real Web Push message delivered to a local push service that checks the VAPID
token and decrypts the body (RFC 8291), retries with backoff, the console SMS backend, and a
notice that can never hold up the floor's call."""

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from cardroom.models import AuditRecord
from cashgame.models import WaitStatus
from cashgame.services.waiting import waiting_add, waiting_call_next
from notices import services, tasks
from notices.models import NoticeLog, PushSubscription
from notices.push import PushFailed, vapid_public_key
from notices.services import consent_give, notices_seat_ready, subscription_add
from notices.sms import ConsoleBackend
from tests.cashgame.conftest import make_game, make_table
from tests.notices.conftest import SUBJECT

pytestmark = pytest.mark.django_db


def called(floor, member, member_token, push_service, *, sms: str = "", phone: bool = True):
    """The member asked for notices (with this phone and SMS number), is on the list and called."""
    game = make_game()
    table = make_table(game, 7)
    consent_give(where="me", token=member_token, consent=True, sms_number=sms)
    if phone:
        subscription_add(
            where="me",
            token=member_token,
            endpoint=push_service.endpoint(),
            p256dh=push_service.p256dh,
            auth=push_service.auth,
        )
    waiting_add(actor=floor, game=game, player=member)
    now = timezone.now()
    entry = waiting_call_next(actor=floor, game=game, table=table, now=now)
    return entry, notices_seat_ready(entry_id=entry.pk, now=now)


def test_a_real_web_push_reaches_the_local_push_service_and_decrypts__NOT_1(
    floor, member, member_token, push_service
):
    entry, (log,) = called(floor, member, member_token, push_service)
    assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "sent"

    (message,) = push_service.received
    hold = timezone.localtime(entry.hold_until).strftime("%H:%M")
    assert message["payload"] == {
        "title": "Your seat is ready",
        "body": f"NLHE 1/2: table 7, seat 1 is held for you until {hold} (3 min). Come to the desk.",
        "url": f"/room/me/{member_token}/",
        "tag": f"seat_ready-{log.consent_id}",
    }
    assert (message["path"], message["encoding"], message["vapid_key"]) == (
        "/push/phone-1",
        "aes128gcm",
        vapid_public_key(),
    )
    assert (message["claims"]["aud"], message["claims"]["sub"]) == (push_service.origin, SUBJECT)
    assert 170 <= int(message["ttl"]) <= 180  # the seconds left of the 3-minute hold
    assert push_service.refused == []
    log.refresh_from_db()
    assert (log.status, log.attempts, log.last_error, log.sent_at is not None) == ("sent", 1, "", True)
    # Delivered once: a duplicated delivery message sends nothing more.
    assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "sent"
    assert len(push_service.received) == 1


def test_a_failing_push_is_retried_with_backoff_then_given_up__NOT_1(
    floor, member, member_token, push_service
):
    entry, (log,) = called(floor, member, member_token, push_service)
    push_service.answers = [503] * 10
    with mock.patch.object(services, "backoff_seconds", wraps=services.backoff_seconds) as backoff:
        assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "failed"
    assert [call.args for call in backoff.call_args_list] == [(0,), (1,), (2,), (3,)]
    assert [services.backoff_seconds(n) for n in range(4)] == [5, 10, 20, 40]
    log.refresh_from_db()
    assert (log.status, log.attempts) == ("failed", 5)
    assert log.last_error.startswith("503: Push failed: 503")
    assert AuditRecord.objects.filter(action="notices.notice_failed", object_id=str(log.pk)).count() == 1
    # The call stood and the hold ran, untouched by the notice.
    entry.refresh_from_db()
    assert (entry.status, entry.hold_until - entry.called_at) == (WaitStatus.CALLED, timedelta(minutes=3))


def test_a_push_that_fails_once_goes_on_the_retry__NOT_1(floor, member, member_token, push_service):
    _entry, (log,) = called(floor, member, member_token, push_service)
    push_service.answers = [500]
    with mock.patch.object(tasks.deliver, "retry", wraps=tasks.deliver.retry) as retry:
        assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "sent"
    assert retry.call_args.kwargs == {"countdown": 5}
    log.refresh_from_db()
    assert (log.status, log.attempts, log.last_error) == ("sent", 2, "")
    assert len(push_service.received) == 1


def test_a_phone_the_push_service_forgot_is_dropped__NOT_1(floor, member, member_token, push_service):
    _entry, (log,) = called(floor, member, member_token, push_service)
    push_service.answers = [410]
    assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "gone"
    subscription = PushSubscription.objects.get()
    assert subscription.ended_at is not None
    log.refresh_from_db()
    assert (log.status, log.attempts) == ("gone", 1)


def test_a_seat_notice_after_the_hold_is_not_sent__NOT_1(floor, member, member_token, push_service):
    entry, (log,) = called(floor, member, member_token, push_service)
    assert services.notice_deliver(log_id=log.pk, now=entry.hold_until) == "expired"
    assert push_service.received == []


def test_the_console_sms_backend_keeps_the_message__NOT_1(
    floor, member, member_token, push_service, settings
):
    settings.SMS_BACKEND = "console"
    entry, (log,) = called(floor, member, member_token, push_service, sms="+421 905 222 333", phone=False)
    assert (log.channel, log.to) == ("sms", "+421905222333")
    assert tasks.deliver.apply(kwargs={"log_id": log.pk}).get() == "sent"
    hold = timezone.localtime(entry.hold_until).strftime("%H:%M")
    assert ConsoleBackend.outbox == [
        {
            "to": "+421905222333",
            "text": f"Your seat is ready. NLHE 1/2: table 7, seat 1 is held for you until {hold} (3 min). "
            "Come to the desk.",
        }
    ]


def test_the_twilio_adapter_posts_the_message__NOT_1(settings):
    from notices.sms import sms_backend

    settings.SMS_BACKEND = "twilio"
    settings.TWILIO_ACCOUNT_SID, settings.TWILIO_AUTH_TOKEN, settings.SMS_FROM = (
        "AC123",
        "secret",
        "+421900000000",
    )
    with mock.patch("notices.sms.requests.post") as post:
        post.return_value.status_code = 201
        sms_backend().send(to="+421905222333", text="Hello")
    post.assert_called_once_with(
        "https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json",
        data={"To": "+421905222333", "From": "+421900000000", "Body": "Hello"},
        auth=("AC123", "secret"),
        timeout=10,
    )


def test_the_notice_is_queued_robustly_after_the_hold_timer__NOT_1(floor, member, member_token):
    """Within the floor's transaction the notice waits for the commit, after the hold's timer,
    marked robust: Django logs its failure and runs the other callbacks."""
    game = make_game()
    table = make_table(game, 2)
    consent_give(where="me", token=member_token, consent=True)
    waiting_add(actor=floor, game=game, player=member)
    waiting_call_next(actor=floor, game=game, table=table)
    pending = [(func.__qualname__, robust) for _sids, func, robust in connection.run_on_commit]
    assert pending == [
        ("send_on_commit(cashgame.waiting_pass_due)", False),
        ("send_on_commit(notices.seat_ready)", True),
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_notice_that_cannot_be_sent_never_holds_the_call__NOT_1(floor, member, member_token, push_service):
    """The broker refuses the notice's message after the commit: the call stands, and the hold's
    timer (sent just before it) is still sent."""
    from cashgame.tasks import waiting_pass_due
    from notices.tasks import seat_ready

    game = make_game()
    table = make_table(game, 2)
    consent_give(where="me", token=member_token, consent=True)
    waiting_add(actor=floor, game=game, player=member)
    with (
        mock.patch.object(seat_ready, "apply_async", side_effect=BrokerError("broker down")) as notice,
        mock.patch.object(waiting_pass_due, "apply_async") as timer,
    ):
        entry = waiting_call_next(actor=floor, game=game, table=table)
    assert notice.call_count == 1 and timer.call_count == 1
    entry.refresh_from_db()
    assert (entry.status, entry.seat, entry.hold_until - entry.called_at) == (
        "called",
        1,
        timedelta(minutes=3),
    )


def test_the_push_failure_is_kept_on_the_notice__NOT_1(floor, member, member_token, push_service):
    _entry, (log,) = called(floor, member, member_token, push_service)
    with mock.patch("notices.services.delivery.push_send", side_effect=PushFailed("timeout: no answer")):
        assert services.notice_deliver(log_id=log.pk) == services.RETRY
    log.refresh_from_db()
    assert (log.status, log.attempts, log.last_error) == ("queued", 1, "timeout: no answer")
    assert json.loads(json.dumps(services.delivery.payload(log)))["url"] == f"/room/me/{member_token}/"
    assert NoticeLog.objects.count() == 1


def test_the_key_command_prints_a_key_the_room_signs_with__NOT_1(settings):
    from io import StringIO

    from django.core.management import call_command

    output = StringIO()
    call_command("notices_vapid_keys", stdout=output)
    lines = output.getvalue().splitlines()
    private = lines[0].removeprefix("VAPID_PRIVATE_KEY=")
    settings.VAPID_PRIVATE_KEY = private
    assert lines[1] == "VAPID_SUBJECT=mailto:floor@your-room.example"
    assert lines[2] == f"# public key (served to the pages from the private key): {vapid_public_key()}"
    assert len(private) == 43 and len(vapid_public_key()) == 87
