from django.conf import settings
from django.utils import timezone

from cardroom.network import from_trusted_proxy
from cardroom.selectors import venue_get


class ProxyHeadersMiddleware:
    """The proxy's word that the device's connection was HTTPS (X-Forwarded-Proto, Django's
    SECURE_PROXY_SSL_HEADER) is believed only from a proxy named in DJANGO_TRUSTED_PROXIES, as
    X-Forwarded-For is (cardroom/network.py). Anyone else's is dropped before Django reads it, so
    a device talking plain HTTP to the server cannot pass for a secure connection. First in the
    middleware, before SecurityMiddleware's HTTPS redirect."""

    def __init__(self, get_response):
        self.get_response = get_response
        header = settings.SECURE_PROXY_SSL_HEADER
        self.header = header[0] if header else None

    def __call__(self, request):
        if self.header and self.header in request.META and not from_trusted_proxy(request):
            del request.META[self.header]
        return self.get_response(request)


class VenueTimezoneMiddleware:
    """Show every time in the venue's zone (SPEC: stored in UTC, shown in Europe/Bratislava)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(venue_get().time_zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
