"""Errors of the web and the worker to the operator's Sentry (OPS-2), scrubbed: what a fake
transport receives holds no player's name, card number, phone number or amount."""

import json

import pytest
import sentry_sdk
from celery import shared_task
from django.test import Client, override_settings
from sentry_sdk.transport import Transport

from ops.sentry import scrub_text, sentry_init
from players.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
PHONE = "+421 905 123 456"
# What must never leave the room, as typed and as the payload may spell it.
PRIVATE = [
    "Zuzana",
    "Kováčová",
    "Zuzka",
    "004217",
    "905 123 456",
    "905123456",
    "1 234,50",
    "1234.50",
    "123450",
]


class Capture(Transport):
    """A transport that keeps what it would send."""

    def __init__(self):
        super().__init__()
        self.envelopes = []

    def capture_envelope(self, envelope):
        self.envelopes.append(envelope)

    def flush(self, timeout, callback=None):
        return None

    def kill(self):
        return None


@shared_task(name="tests.ops.payout_fails")
def payout_fails(player_id: int, amount_cents: int, **kwargs):
    player = Player.objects.get(pk=player_id)
    raise ValueError(f"cannot pay {amount_cents} cents to {player.nickname} #{player.card_number}")


@pytest.fixture
def sent():
    transport = Capture()
    sentry_init(dsn="https://public@errors.example.invalid/1", environment="test", transport=transport)
    try:
        yield transport.envelopes
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)
        sentry_sdk.get_isolation_scope().clear_breadcrumbs()


def events(envelopes) -> list[dict]:
    return [item.payload.json for envelope in envelopes for item in envelope.items if item.type == "event"]


def payload_text(envelopes) -> str:
    """Everything sent, as bytes on the wire and as text with its escapes undone."""
    raw = b"".join(envelope.serialize() for envelope in envelopes).decode()
    return raw + json.dumps(events(envelopes), ensure_ascii=False)


@pytest.fixture
def player():
    return PlayerFactory(first_name="Zuzana", last_name="Kováčová", nickname="Zuzka", card_number="004217")


@override_settings(ROOT_URLCONF="tests.ops.sentry_urls")
def test_a_web_error_is_sent_without_the_players_data__OPS_2(sent, player):
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/ops-test/payout/{player.pk}/?q=Kováčová",
        {"phone": PHONE, "amount": "1 234,50", "amount_cents": "123450", "first_name": "Zuzana"},
    )
    assert response.status_code == 500
    sentry_sdk.flush()
    sent_events = events(sent)
    # The log call and the exception.
    assert sorted(event.get("logger", "") for event in sent_events) == ["", "cardroom.tests"]
    error = next(event for event in sent_events if "exception" in event)
    exception = error["exception"]["values"][-1]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == (
        "payout of [number] EUR to [Filtered] [Filtered] (card [number], phone [number]) failed"
    )
    assert error["transaction"] == "/ops-test/payout/{pk}/"
    assert not {"data", "cookies", "env", "query_string"} & set(error["request"])
    assert "user" not in error
    assert all("vars" not in frame for frame in exception["stacktrace"]["frames"])
    logged = next(event for event in sent_events if event.get("logger") == "cardroom.tests")
    assert logged["logentry"] == {
        "message": "payout of %s EUR to %s failed",
        "formatted": "payout of [Filtered] EUR to [Filtered] failed",
        "params": ["[Filtered]", "[Filtered]"],
    }
    text = payload_text(sent)
    for private in PRIVATE:
        assert private not in text, private


def test_a_worker_error_is_sent_without_the_players_data__OPS_2(sent, player):
    assert payout_fails.apply(kwargs={"player_id": player.pk, "amount_cents": 123_450}).failed()
    sentry_sdk.flush()
    error = next(event for event in events(sent) if "exception" in event)
    assert error["exception"]["values"][-1]["type"] == "ValueError"
    assert error["exception"]["values"][-1]["value"] == "cannot pay [number] cents to [Filtered] #[number]"
    assert error["extra"]["celery-job"]["task_name"] == "tests.ops.payout_fails"
    text = payload_text(sent)
    for private in PRIVATE:
        assert private not in text, private


def test_error_texts_keep_their_words_and_lose_the_values__OPS_2():
    assert scrub_text(
        'duplicate key value violates unique constraint "players_card"\nDETAIL:  Key '
        "(card_number)=(004217) already exists."
    ) == (
        'duplicate key value violates unique constraint "players_card"\nDETAIL:  Key '
        "(card_number)=([Filtered]) already exists."
    )
    assert scrub_text(
        "new row violates check constraint\nDETAIL:  Failing row contains (7, Zuzana, 1500)."
    ) == ("new row violates check constraint\nDETAIL:  Failing row contains ([Filtered])")
    assert scrub_text("KeyError: 'Kováčová'") == "KeyError: '[Filtered]'"
    assert scrub_text("no such table: 'cashier_posting'") == "no such table: 'cashier_posting'"
    assert scrub_text("Top-up needs at least 1 500,00 EUR; call +421905123456") == (
        "Top-up needs at least [number] EUR; call [number]"
    )
    assert scrub_text("card AB123456 refused") == "card [number] refused"
