"""`manage.py notices_vapid_keys`: a new VAPID key pair for the venue's Web Push (NOT-1).

Prints the environment lines to set; the private key stays with the server (never in the
repository), the public key is derived from it and served to the phone pages. A new key makes
every phone subscribe again, so generate it once per installation."""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand

from notices.push import b64url


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push notices (set VAPID_PRIVATE_KEY and VAPID_SUBJECT)."

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
        public = b64url(
            key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\n")
        self.stdout.write("VAPID_SUBJECT=mailto:floor@your-room.example\n")
        self.stdout.write(f"# public key (served to the pages from the private key): {public}\n")
