"""The test-isolation fixture (tests/isolation.py, autouse in tests/conftest.py): whatever a test
switches on, the next one starts in English, in the room's zone and with empty caches."""

import zoneinfo

from django.core.cache import cache
from django.test import Client
from django.utils import timezone, translation

from cardroom.money import format_eur
from tests.isolation import restored


def test_every_test_starts_in_english_in_the_room_zone_with_an_empty_cache():
    assert translation.get_language() == "en"
    assert timezone.get_current_timezone_name() == "Europe/Bratislava"
    assert cache.get("isolation-probe") is None
    assert format_eur(1_000) == "10.00 EUR"


def test_a_slovak_page_request_leaves_english_behind(db, manager):
    """The leak that failed tests/reports after tests/pages: the test client runs the request in
    this thread, and LocaleMiddleware leaves the request's language active after it."""
    client = Client()
    client.force_login(manager)
    with restored():
        client.cookies["django_language"] = "sk"
        page = client.get("/reports/")
        assert page.status_code == 200
        assert translation.get_language() == "sk"  # what the next test would have inherited
        assert format_eur(1_000) == "10,00 EUR"
    assert translation.get_language() == "en"
    assert format_eur(1_000) == "10.00 EUR"


def test_a_language_a_zone_and_a_cached_value_set_by_hand_are_undone():
    with restored():
        translation.activate("sk")
        timezone.activate(zoneinfo.ZoneInfo("America/New_York"))
        cache.set("isolation-probe", 1)
    assert translation.get_language() == "en"
    assert timezone.get_current_timezone_name() == "Europe/Bratislava"
    assert cache.get("isolation-probe") is None


def test_a_language_active_before_is_put_back_not_the_default():
    with translation.override("sk"):
        with restored():
            translation.activate("en")
        assert translation.get_language() == "sk"
    assert translation.get_language() == "en"


def test_a_test_with_a_real_worker_keeps_the_shared_cache():
    """Its Redis database is also the worker's broker: clearing it would drop queued tasks."""
    cache.set("isolation-probe", 1)
    with restored(shared_cache=False):
        pass
    assert cache.get("isolation-probe") == 1
    cache.delete("isolation-probe")
