"""The one idempotency mechanism (CAG-2): every money request carries a key, and repeating the
key returns the first result and posts nothing twice.

A money service wraps its work in `run_once`, stating three things: the key, the request it
serves (its fingerprint: the same key with a different request is a 409), and how to load the
result to replay. The key is stored, unique, in the same transaction as the work, so:

- a retry after success finds the key and gets the first result, whatever happened since
  (the shift closed, the seat was taken);
- two requests racing with one key are settled by the unique index: the loser's insert waits
  for the winner's commit, fails, rolls its own work back and answers with the winner's result;
- a refused request stores nothing, so the same key may be tried again once the problem is
  fixed.

Whether a request was carried out now or answered with an earlier result is known only once it
ran (the winner of a race and its loser both find the key unused when they start): the API wraps
its call in `replay_watch()` and reads the outcome afterwards, for `Idempotent-Replayed`.
"""

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.models import IdempotentRequest

T = TypeVar("T", bound=models.Model)

KEY_PATTERN = re.compile(r"[A-Za-z0-9._:-]{8,80}")


@dataclass
class ReplayOutcome:
    """What `run_once` did with the watched request's key: `replayed` is True when the answer is
    an earlier request's result (a repeat, or the loser of a race with the same key)."""

    replayed: bool = False


_watched: ContextVar[ReplayOutcome | None] = ContextVar("idempotency_replay_outcome", default=None)


@contextmanager
def replay_watch() -> Iterator[ReplayOutcome]:
    """Watch the money request run inside the block: `outcome.replayed` afterwards."""
    outcome = ReplayOutcome()
    token = _watched.set(outcome)
    try:
        yield outcome
    finally:
        _watched.reset(token)


def note_replayed() -> None:
    """The request being served is answered with an earlier result (run_once, or a caller that
    found that result itself before reaching it, such as the cage's routing)."""
    outcome = _watched.get()
    if outcome is not None:
        outcome.replayed = True


def require_key(key: str) -> str:
    # fullmatch: "$" would also take a key ending in a line break.
    if not KEY_PATTERN.fullmatch(key or ""):
        raise DomainError(
            "idempotency_key_required",
            _("Every money request needs a request key (8-80 letters, digits, ._:-)."),
            rule="CAG-2",
        )
    return key


def fingerprint(operation: str, request: dict) -> str:
    """A stable digest of what was asked: the operation and its arguments (ids, cents)."""
    text = json.dumps({"operation": operation, **request}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def key_used(key: str) -> bool:
    """Whether a request with this key has already been carried out."""
    return IdempotentRequest.objects.filter(key=key).exists()


def key_reused() -> Conflict:
    """The refusal of a key already used for a different request."""
    return Conflict(
        "idempotency_key_reused",
        _(
            "This request key was already used for a different request. Start a new "
            "request (reload the page) for a new transaction."
        ),
        rule="CAG-2",
    )


def _previous(*, key: str, operation: str, digest: str, load: Callable[[int], T]) -> T | None:
    done = IdempotentRequest.objects.filter(key=key).first()
    if done is None:
        return None
    if done.operation != operation or done.fingerprint != digest:
        raise key_reused()
    note_replayed()
    return load(done.result_id)


def run_once(
    *,
    key: str,
    operation: str,
    request: dict,
    run: Callable[[], T],
    load: Callable[[int], T],
    before: Callable[[], None] | None = None,
    now=None,
) -> T:
    """Carry out `run()` once per key, in one transaction with the key's record; replay
    `load(result id)` for a repeat.

    `before` runs outside the transaction, after the repeat check: for a check whose refusal
    must be recorded even though the request is refused (PLY-1 logs an excluded player's try).
    """
    require_key(key)
    digest = fingerprint(operation, request)
    previous = _previous(key=key, operation=operation, digest=digest, load=load)
    if previous is not None:
        return previous
    if before is not None:
        before()
    try:
        with transaction.atomic():
            result = run()
            IdempotentRequest.objects.create(
                key=key,
                operation=operation,
                fingerprint=digest,
                result_id=result.pk,
                created_at=now or timezone.now(),
            )
    except (DomainError, IntegrityError):
        # Refused, or beaten by a request with the same key: if that one went through, this is
        # its repeat. Otherwise the refusal stands and nothing was written.
        previous = _previous(key=key, operation=operation, digest=digest, load=load)
        if previous is not None:
            return previous
        raise
    return result
