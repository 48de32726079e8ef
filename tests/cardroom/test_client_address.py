"""The device's address behind the HTTPS proxy, which the limits that count by address use (the
log-in lock-out, tablet pairing, players' remote joins): X-Forwarded-For is believed only from a
trusted proxy, and only as far back as trusted proxies reach."""

import os
import subprocess
import sys

import pytest
from django.test import RequestFactory

from cardroom.network import client_address
from tests.conftest import PASSWORD

PHONE = "203.0.113.7"
# Named, never connected to: the checks read the settings.
REDIS_CACHE = {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": "redis://127.0.0.1:6379/0",
}


def address(remote: str, forwarded: str | None = None) -> str:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


def test_without_trusted_proxies_the_connection_is_the_device(settings):
    settings.TRUSTED_PROXIES = []
    assert address("198.51.100.2") == "198.51.100.2"
    # A header anyone can send changes nothing.
    assert address("198.51.100.2", forwarded="10.9.9.9") == "198.51.100.2"


@pytest.mark.parametrize(
    ("remote", "forwarded", "device"),
    [
        ("127.0.0.1", PHONE, PHONE),  # one proxy on the same machine
        ("127.0.0.1", f"6.6.6.6, {PHONE}", PHONE),  # the phone sent a header of its own: not believed
        ("127.0.0.1", f"{PHONE}, 10.1.2.3", PHONE),  # a load balancer in 10.0.0.0/8, then the proxy
        ("127.0.0.1", f" {PHONE} ,10.1.2.3,", PHONE),  # spaces and an empty item
        ("127.0.0.1", "10.1.2.3", "10.1.2.3"),  # only proxies: the farthest one is all that is known
        ("127.0.0.1", "", "127.0.0.1"),  # no header: the proxy's own request
        ("127.0.0.1", "unknown", "unknown"),  # not an address: counted as it is, never trusted
        ("198.51.100.2", PHONE, "198.51.100.2"),  # not from a proxy: the header is not believed
        ("::1", PHONE, PHONE),  # IPv6 loopback
    ],
)
def test_behind_trusted_proxies_the_device_is_the_first_untrusted_from_the_right(
    settings, remote, forwarded, device
):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1", "10.0.0.0/8"]
    assert address(remote, forwarded) == device


def test_a_trusted_proxy_that_is_not_an_address_stops_the_server():
    environment = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_TRUSTED_PROXIES": "127.0.0.1, my-proxy"}
    result = subprocess.run(
        [sys.executable, "-c", "import cardroom.settings"], env=environment, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "DJANGO_TRUSTED_PROXIES: 'my-proxy' is not an address or a network" in result.stderr


@pytest.mark.django_db
def test_a_log_in_flood_behind_the_proxy_locks_the_guessing_device_only__ROL_1(client, settings, cashier):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]

    def log_in(password: str, device: str) -> int:
        return client.post(
            "/login/",
            {"username": "cashier1", "password": password},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=device,
        ).status_code

    assert [log_in("wrong", PHONE) for _ in range(5)] == [200, 200, 200, 200, 429]
    assert log_in(PASSWORD, PHONE) == 429
    # Every request came through the proxy; the cashier's own desk is another device.
    assert log_in(PASSWORD, "192.168.1.20") == 302


def test_the_deployment_check_asks_for_the_proxy(settings):
    from django.core.checks import run_checks

    # A shared cache, as production has, so the proxy's check is the only one of the room's.
    settings.CACHES = {"default": REDIS_CACHE}
    settings.TRUSTED_PROXIES = []
    assert [m.id for m in run_checks(include_deployment_checks=True) if m.id.startswith("cardroom.")] == [
        "cardroom.W001"
    ]
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert [m.id for m in run_checks(include_deployment_checks=True) if m.id.startswith("cardroom.")] == []
