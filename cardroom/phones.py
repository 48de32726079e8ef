"""Phone numbers as the room keeps them: digits with an optional leading "+", nothing else.

One place for the waiting lists' phone joins (WTL-1) and the notices' SMS numbers (NOT-1): each
caller names its own house rule, so the refusal links the rule the player was following.
"""

import re

from django.utils.translation import gettext as _

from cardroom.errors import DomainError

_PHONE = re.compile(r"^\+?[0-9]{6,15}$")
_PHONE_SEPARATORS = re.compile(r"[\s\-./()]")


def phone_normalise(phone: str, *, rule: str = "WTL-1") -> str:
    """ "+421 905 123-456" -> "+421905123456"; "" for no phone; a refusal for anything else."""
    phone = _PHONE_SEPARATORS.sub("", phone or "")
    if phone.startswith("00"):
        phone = "+" + phone[2:]
    if phone and not _PHONE.match(phone):
        raise DomainError(
            "invalid_phone", _("Write the phone number in digits, e.g. +421 905 123 456."), rule=rule
        )
    return phone
