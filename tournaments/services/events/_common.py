"""What the event's services share: the rule, its refusal, and the event's row lock (taken
first, before the tournaments')."""

from cardroom.errors import DomainError
from tournaments.models import Event

RULE = "SER-2"


def refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update(of=("self",)).get(pk=event_id)
