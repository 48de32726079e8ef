"""X-Forwarded-Proto, the proxy's word that the device's connection was HTTPS, is believed only
from the proxies named in DJANGO_TRUSTED_PROXIES, as X-Forwarded-For is (cardroom/network.py,
cardroom.middleware.ProxyHeadersMiddleware)."""

import pytest

pytestmark = pytest.mark.django_db
PHONE = "203.0.113.7"


@pytest.fixture
def seen(settings):
    """What the view saw: the request's is_secure() and scheme, for a GET sent from `remote`."""
    from django.http import JsonResponse
    from django.test import Client
    from django.urls import path

    def probe(request):
        return JsonResponse({"secure": request.is_secure(), "scheme": request.scheme})

    urlconf = type("urlconf", (), {"urlpatterns": [path("probe/", probe)]})
    settings.ROOT_URLCONF = urlconf
    settings.SECURE_SSL_REDIRECT = False

    def see(remote: str, **headers) -> dict:
        return Client().get("/probe/", REMOTE_ADDR=remote, **headers).json()

    return see


def test_x_forwarded_proto_from_an_untrusted_address_is_ignored(settings, seen):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert seen(PHONE, HTTP_X_FORWARDED_PROTO="https") == {"secure": False, "scheme": "http"}


def test_x_forwarded_proto_from_a_trusted_proxy_is_believed(settings, seen):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert seen("127.0.0.1", HTTP_X_FORWARDED_PROTO="https") == {"secure": True, "scheme": "https"}
    assert seen("10.1.2.3", HTTP_X_FORWARDED_PROTO="https") == {"secure": True, "scheme": "https"}
    assert seen("127.0.0.1", HTTP_X_FORWARDED_PROTO="http") == {"secure": False, "scheme": "http"}
    assert seen("127.0.0.1") == {"secure": False, "scheme": "http"}


def test_without_trusted_proxies_nobody_is_believed(settings, seen):
    settings.TRUSTED_PROXIES = []
    assert seen("127.0.0.1", HTTP_X_FORWARDED_PROTO="https") == {"secure": False, "scheme": "http"}


def test_the_https_redirect_is_not_skipped_by_a_forged_header(settings, client):
    """With debug off, plain HTTP is redirected to HTTPS: a device that says it came through the
    proxy's HTTPS still is, and the trusted proxy's HTTPS request is served."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.SECURE_SSL_REDIRECT = True
    forged = client.get("/login/", REMOTE_ADDR=PHONE, HTTP_X_FORWARDED_PROTO="https")
    assert forged.status_code == 301
    assert forged["Location"] == "https://testserver/login/"
    proxied = client.get("/login/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    assert proxied.status_code == 200
