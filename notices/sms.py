"""SMS through a provider-neutral interface (NOT-1): `sms_backend().send(to=..., text=...)`.

SMS_BACKEND picks the backend:
- "console" (the default): writes each message to the log and keeps it in `ConsoleBackend.outbox`
  (development and tests; nothing leaves the machine);
- "twilio": Twilio's REST API over plain HTTPS (no SDK): POST
  https://api.twilio.com/2010-04-01/Accounts/<TWILIO_ACCOUNT_SID>/Messages.json with basic auth
  (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN) and the form fields To, From (SMS_FROM) and Body.

Another provider is one class with the same `send` added here. A backend raises SmsFailed when
the message did not go; the notice task retries it with backoff.
"""

import logging
from typing import ClassVar

import requests
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger("notices.sms")
TIMEOUT_SECONDS = 10


class SmsFailed(Exception):
    pass


class ConsoleBackend:
    outbox: ClassVar[list[dict[str, str]]] = []

    def send(self, *, to: str, text: str) -> None:
        logger.info("SMS to %s: %s", to, text)
        ConsoleBackend.outbox.append({"to": to, "text": text})


class TwilioBackend:
    url = "https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json"

    def __init__(self):
        if not (settings.TWILIO_ACCOUNT_SID and settings.TWILIO_AUTH_TOKEN and settings.SMS_FROM):
            raise ImproperlyConfigured(
                "SMS_BACKEND=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM."
            )

    def send(self, *, to: str, text: str) -> None:
        try:
            response = requests.post(
                self.url.format(sid=settings.TWILIO_ACCOUNT_SID),
                data={"To": to, "From": settings.SMS_FROM, "Body": text},
                auth=(settings.TWILIO_ACCOUNT_SID, settings.TWILIO_AUTH_TOKEN),
                timeout=TIMEOUT_SECONDS,
            )
        except requests.RequestException as error:
            raise SmsFailed(f"{type(error).__name__}: {error}"[:500]) from None
        if response.status_code >= 300:
            raise SmsFailed(f"{response.status_code}: {response.text}"[:500])


BACKENDS = {"console": ConsoleBackend, "twilio": TwilioBackend}


def sms_backend():
    try:
        return BACKENDS[settings.SMS_BACKEND]()
    except KeyError:
        raise ImproperlyConfigured(
            f"SMS_BACKEND={settings.SMS_BACKEND!r}: choose one of {', '.join(BACKENDS)}."
        ) from None
