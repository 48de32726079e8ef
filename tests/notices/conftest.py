"""Fixtures of the notices' tests (NOT-1): the venue's VAPID key, the local push service (let
through by PUSH_ENDPOINT_ALLOW_PREFIXES), and links to a player's page and a phone joiner's."""

import pytest
from django.core.cache import cache
from django.utils import timezone

from cashgame.services.waiting_remote import status_token, waiting_join_remote
from loyalty.selectors import player_link_token
from notices.sms import ConsoleBackend
from tests.factories import PlayerFactory
from tests.notices.push_service import LocalPushService, vapid_private_key

SUBJECT = "mailto:floor@room.example"


@pytest.fixture
def vapid(settings):
    settings.VAPID_PRIVATE_KEY = vapid_private_key()
    settings.VAPID_SUBJECT = SUBJECT
    return settings.VAPID_PRIVATE_KEY


@pytest.fixture
def push_service(settings, vapid):
    with LocalPushService() as service:
        settings.PUSH_ENDPOINT_ALLOW_PREFIXES = [service.origin + "/"]
        yield service


@pytest.fixture(autouse=True)
def _outbox():
    ConsoleBackend.outbox.clear()
    cache.clear()
    yield
    ConsoleBackend.outbox.clear()
    cache.clear()


@pytest.fixture
def member(db):
    return PlayerFactory(first_name="Jana", last_name="Novakova")


@pytest.fixture
def member_token(member):
    return player_link_token(player_id=member.pk)


def phone_join(game, *, nickname="Ace", phone="+421905123456"):
    """A phone joiner's entry and the token of his status link (issued now, so it is valid)."""
    entries, _token = waiting_join_remote(
        game_ids=[game.pk], nickname=nickname, phone=phone, address="203.0.113.9", now=timezone.now()
    )
    return entries[0], status_token([entries[0].pk], now=timezone.now())
