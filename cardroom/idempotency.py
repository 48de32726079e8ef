"""The one idempotency mechanism (CAG-2): every money request carries a key, and repeating the
key returns the first result and posts nothing twice.

A money service wraps its work in `run_once`, stating three things: the key, the request it
serves (its fingerprint: the same key with a different request is a 409), and how to load the
result to replay. The key is stored, unique, in the same transaction as the work, so:

- a retry after success gets the first result, whatever happened since (the shift closed, the
  seat was taken): its own try is refused, or stopped by the key's index, and rolled back, and
  only then is the key looked up (a new request, nearly every one, never reads it);
- two requests racing with one key are settled by the unique index: the loser's insert waits
  for the winner's commit, fails, rolls its own work back and answers with the winner's result;
- a refused request stores nothing, so the same key may be tried again once the problem is
  fixed.

Whether a request was carried out now or answered with an earlier result is known only once it
ran (the key is looked up only after a refusal): the API wraps
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


@dataclass
class _Route:
    """A door's request being routed to a game's service under the same key (see `run_once`)."""

    key: str
    operation: str
    digest: str
    recorded: bool = False


_routing: ContextVar[_Route | None] = ContextVar("idempotency_routed_request", default=None)


def run_once(
    *,
    key: str,
    operation: str,
    request: dict,
    run: Callable[[], T],
    load: Callable[[int], T],
    before: Callable[[], None] | None = None,
    routes: bool = False,
    now=None,
) -> T:
    """Carry out `run()` once per key, in one transaction with the key's record; replay
    `load(result id)` for a repeat.

    The key is not looked up first: a new request (nearly every one) costs only the record's
    insert. A repeat runs into a refusal (what it asked for is done: the seat is taken, the
    session ended) or into the key's unique index, its work is rolled back, and only then is the
    key looked up and the first result answered.

    `before` runs outside the transaction: for a check whose refusal must be recorded even though
    the request is refused (PLY-1 logs an excluded player's try).

    `routes=True` is for a door that only finds what the request is about and hands it to a
    game's service that runs once under the same key (the cage, CAG-6). The service records the
    key with the door's operation and request, in its own transaction and after its own
    `before`; the door answers repeats, including one whose lookup fails because the first
    request changed what it looks up (a cash-out ended the session). The result id recorded is
    the service's, so the door's `load` finds its answer by the key.
    """
    require_key(key)
    digest = fingerprint(operation, request)
    route = _routing.get()
    if route is not None and route.key == key:
        # The service of a routed request: it records under the door's name; refusals and
        # repeats go back to the door.
        if before is not None:
            before()
        with transaction.atomic():
            result = run()
            _record(key=key, operation=route.operation, digest=route.digest, result=result, now=now)
        route.recorded = True
        return result
    token = _routing.set(_Route(key=key, operation=operation, digest=digest)) if routes else None
    try:
        if routes:
            result = run()
            if not _routing.get().recorded:
                raise RuntimeError(f"{operation} routed its request to no service that runs once.")
        else:
            if before is not None:
                before()
            with transaction.atomic():
                result = run()
                _record(key=key, operation=operation, digest=digest, result=result, now=now)
    except (DomainError, IntegrityError):
        # Refused, or the key's index refused the record: if a request with this key went
        # through (a repeat, or the winner of a race), answer with its result. Otherwise the
        # refusal stands and nothing was written.
        previous = _previous(key=key, operation=operation, digest=digest, load=load)
        if previous is not None:
            return previous
        raise
    finally:
        if token is not None:
            _routing.reset(token)
    return result


def _record(*, key: str, operation: str, digest: str, result: models.Model, now) -> None:
    IdempotentRequest.objects.create(
        key=key,
        operation=operation,
        fingerprint=digest,
        result_id=result.pk,
        created_at=now or timezone.now(),
    )
