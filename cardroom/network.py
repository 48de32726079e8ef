"""The address of the device behind a request, for the limits that count by address: log-in
lock-outs (django-axes), guessing a tablet's pairing code, players joining a waiting list from
their phones.

Behind an HTTPS proxy every request arrives from the proxy's own address, so the proxy must say
whose request it forwards (X-Forwarded-For) and the site must know which proxies to believe
(`DJANGO_TRUSTED_PROXIES`). Anyone can send that header, so it is read only on a connection from
a trusted proxy, and only as far back as trusted proxies reach: each proxy appends the address
it was connected from, and the first address from the right that is not a trusted proxy is the
device's. Without trusted proxies the connection's address is the device's.

The same goes for X-Forwarded-Proto, by which the proxy says the device's connection was HTTPS
(Django's SECURE_PROXY_SSL_HEADER: `request.is_secure()`, the HTTPS redirect, absolute links):
`cardroom.middleware.ProxyHeadersMiddleware` drops it from any connection but a trusted proxy's.
"""

import ipaddress
from functools import cache

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def from_trusted_proxy(request) -> bool:
    """The connection comes from a proxy named in DJANGO_TRUSTED_PROXIES."""
    return _is_trusted(request.META.get("REMOTE_ADDR", ""), _networks(tuple(settings.TRUSTED_PROXIES)))


def client_address(request) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    forwarded = [item.strip() for item in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [item for item in forwarded if item]
    while forwarded and _is_trusted(address, networks):
        address = forwarded.pop()
    return address
