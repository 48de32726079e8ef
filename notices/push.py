"""Web Push (RFC 8030) with the venue's VAPID key (RFC 8292), payloads encrypted for the phone
(RFC 8291, aes128gcm) by pywebpush.

A subscription comes from the phone's browser and names the push service's address the room
will POST to. A forged one could make the server post to itself or to the room's network, so an
endpoint must be https to a public host name (no address literal, no "localhost") unless a
prefix in PUSH_ENDPOINT_ALLOW_PREFIXES lets it through (the tests' local push service), and the
keys must be a real P-256 point and a 16-byte secret.
"""

import base64
import binascii
import ipaddress
import json
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from cardroom.errors import DomainError

# Seconds to wait for the push service; the task retries a slow one later.
SEND_TIMEOUT_SECONDS = 10
_INTERNAL_NAMES = ("localhost", "localdomain", "local", "internal", "lan", "home", "intranet")


class PushGone(Exception):
    """The push service forgot the subscription (404 or 410): the phone unsubscribed."""


class PushFailed(Exception):
    """Not delivered this time (a network failure or the push service's 5xx, 429): retry."""


def b64url_decode(text: str) -> bytes:
    text = (text or "").strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_key() -> Vapid | None:
    """The venue's VAPID signing key, None when none is set (push is then off)."""
    if not settings.VAPID_PRIVATE_KEY:
        return None
    return Vapid.from_string(private_key=settings.VAPID_PRIVATE_KEY)


def vapid_public_key() -> str:
    """The applicationServerKey the page subscribes with: the public point, uncompressed,
    base64url; "" when push is off."""
    key = vapid_key()
    if key is None:
        return ""
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def _refuse(message: str) -> DomainError:
    return DomainError("invalid_subscription", message, rule="NOT-1")


def _public_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
        return False  # an address literal: push services are reached by name
    except ValueError:
        pass
    labels = host.lower().rstrip(".").split(".")
    return len(labels) >= 2 and all(labels) and labels[-1] not in _INTERNAL_NAMES


def endpoint_clean(endpoint: str) -> str:
    endpoint = (endpoint or "").strip()
    if any(endpoint.startswith(prefix) for prefix in settings.PUSH_ENDPOINT_ALLOW_PREFIXES):
        return endpoint
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        raise _refuse(_("The phone's push address is not a web address.")) from None
    if parts.scheme != "https" or parts.username or parts.password or port not in (None, 443):
        raise _refuse(_("A push address must be an https address of a push service."))
    if not _public_host(host) or len(endpoint) > 1000:
        raise _refuse(_("The push address must be a public push service, not a local or internal address."))
    return endpoint


def keys_clean(p256dh: str, auth: str) -> tuple[str, str]:
    try:
        point, secret = b64url_decode(p256dh), b64url_decode(auth)
    except (binascii.Error, ValueError):
        raise _refuse(_("The phone's push keys are not readable.")) from None
    if len(point) != 65 or len(secret) != 16:
        raise _refuse(_("The phone's push keys have the wrong length."))
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise _refuse(_("The phone's push key is not a valid key.")) from None
    return b64url(point), b64url(secret)


def push_send(*, endpoint: str, p256dh: str, auth: str, payload: dict, ttl: int) -> None:
    """Encrypt `payload` (JSON) for the phone and hand it to its push service; PushGone or
    PushFailed when that did not work."""
    key = vapid_key()
    if key is None:
        raise PushFailed("no VAPID key is set (VAPID_PRIVATE_KEY)")
    parts = urlsplit(endpoint)
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, ensure_ascii=False, sort_keys=True),
            vapid_private_key=key,
            vapid_claims={"sub": settings.VAPID_SUBJECT, "aud": f"{parts.scheme}://{parts.netloc}"},
            ttl=max(ttl, 0),
            timeout=SEND_TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            raise PushGone(f"{status}: the push service no longer knows this phone") from None
        raise PushFailed(f"{status or 'no answer'}: {error.message}"[:500]) from None
    except Exception as error:  # connection refused, timeouts, DNS: all worth another try
        raise PushFailed(f"{type(error).__name__}: {error}"[:500]) from None
