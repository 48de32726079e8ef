"""The seal on an erased player's identity (GDP-1): what the anti-money-laundering law makes the
room keep is stored encrypted (Fernet: AES in CBC mode with an HMAC, from the `cryptography`
package), so the database or a backup of it never shows it. The key is the setting
PLAYER_IDENTITY_KEY (a Fernet key: 32 random bytes in url-safe base64), else one derived from the
secret key; a room sets its own and keeps it apart from the database's backups, so a backup
alone never opens a sealed identity and a new secret key loses none. Only
`players.services.data_rights.player_identity_read` opens a seal, for a manager who records why.
"""

import base64
import hashlib
import hmac
import json

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.utils.translation import gettext as _

from cardroom.errors import DomainError


def _fernet() -> Fernet:
    key = settings.PLAYER_IDENTITY_KEY
    if not key:
        digest = hmac.new(settings.SECRET_KEY.encode(), b"players.sealed-identity", hashlib.sha256).digest()
        key = base64.urlsafe_b64encode(digest).decode()
    return Fernet(key)


def seal(identity: dict) -> str:
    """The identity as a sealed text (it holds only JSON-safe values)."""
    text = json.dumps(identity, ensure_ascii=False, sort_keys=True)
    return _fernet().encrypt(text.encode()).decode()


def unseal(sealed: str) -> dict:
    try:
        return json.loads(_fernet().decrypt(sealed.encode()))
    except InvalidToken:
        raise DomainError(
            "seal_unreadable",
            _("The sealed identity cannot be opened with this installation's key."),
            rule="GDP-1",
            status_code=409,
        ) from None
