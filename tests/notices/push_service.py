"""A local Web Push service for the tests (NOT-1): a real HTTP server on 127.0.0.1 that plays
the browser vendor's push service and the phone at once. It holds the subscriber's P-256 key
pair and auth secret, as a phone's browser does; it checks each message's VAPID token (the
ES256 signature with the key the token names, the audience, the expiry and the subject) and
decrypts the body (RFC 8291, aes128gcm) with http_ece, keeping what it read.

`answers` makes it refuse the next messages with the given statuses (503, 410 …)."""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class VapidRefused(Exception):
    pass


def vapid_claims(authorization: str, *, audience: str) -> tuple[dict, str]:
    """The claims of a `vapid t=<jwt>, k=<key>` header, after checking its signature and
    audience; (claims, the signer's public key)."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise VapidRefused(f"scheme {scheme!r}")
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = fields["t"], fields["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64url(header_b64))
    if header.get("alg") != "ES256":
        raise VapidRefused(f"alg {header.get('alg')!r}")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature_b64)
    signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise VapidRefused("bad signature") from None
    claims = json.loads(unb64url(claims_b64))
    if claims.get("aud") != audience:
        raise VapidRefused(f"audience {claims.get('aud')!r}, expected {audience!r}")
    if not claims.get("exp") or claims["exp"] < time.time():
        raise VapidRefused("expired")
    return claims, key


class LocalPushService:
    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        self.received: list[dict] = []
        self.refused: list[str] = []
        self.answers: list[int] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if service.answers:
                    self.send_response(service.answers.pop(0))
                    self.end_headers()
                    return
                try:
                    claims, key = vapid_claims(self.headers.get("Authorization", ""), audience=service.origin)
                    plain = http_ece.decrypt(
                        body,
                        private_key=service.private_key,
                        dh=None,
                        auth_secret=service.auth_secret,
                        version="aes128gcm",
                    )
                except Exception as error:  # the test reads why
                    service.refused.append(f"{type(error).__name__}: {error}")
                    self.send_response(400)
                    self.end_headers()
                    return
                service.received.append(
                    {
                        "path": self.path,
                        "claims": claims,
                        "vapid_key": key,
                        "ttl": self.headers.get("TTL"),
                        "encoding": self.headers.get("Content-Encoding"),
                        "payload": json.loads(plain),
                    }
                )
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def endpoint(self, name: str = "phone-1") -> str:
        return f"{self.origin}/push/{name}"

    def subscription(self, name: str = "phone-1") -> dict:
        return {"endpoint": self.endpoint(name), "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def vapid_private_key() -> str:
    """A new VAPID private key, as `manage.py notices_vapid_keys` prints it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))
