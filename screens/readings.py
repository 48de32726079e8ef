"""The readings many screens share (the floor view, the TV clock, the players' room page), and
the drawings in parts that let a screen fetch only what changed since the version it holds."""

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.urls import get_script_prefix

from cardroom.venues import venue_active_id

T = TypeVar("T")


def venue_key(key: str) -> str:
    """A shared reading's key for the venue the request works for (VEN-1), and for the address
    prefix it came by: the drawings hold links, and a phone that came in at /v/two/ must be sent
    links that keep /v/two/, one that came by the venue's host name links without it. One venue's
    reading is never another's, whatever the screens of the operator's venues poll at once. With
    no venue active (a command, a test) nothing is filtered: a reading of its own too."""
    return f"venue-{venue_active_id()}:{get_script_prefix()}:{key}"


def shared_reading(key: str, read: Callable[[], T], *, every: float) -> T:
    """The shared reading (_shared_reading) of `key` for the active venue (venue_key)."""
    return _shared_reading(venue_key(key), read, every=every)


def _shared_reading(key: str, read: Callable[[], T], *, every: float) -> T:
    """What many screens poll, read once every `every` seconds for all of them (Django's cache).

    The floor's screens, the TVs and the players' phones each poll each second or so; reading
    the room once per screen would cost the room's work times its screens. Here the first
    poll of each period reads (`read()`) while the polls arriving during that reading are
    answered with the last one, at most one period old, instead of reading too: with sync web
    workers, ten screens reading at once would hold every worker and queue the dealers' taps
    behind them. The value must pickle (Django's cache).
    """
    moment = int(time.time() / every)
    last = cache.get(f"{key}:last")
    if last is not None and last[0] == moment:
        return last[1]
    # The first of this period to get the token reads; the others keep the last reading.
    if last is not None and not cache.add(f"{key}:reading:{moment}", 1, timeout=max(5, 2 * every)):
        return last[1]
    value = read()
    cache.set(f"{key}:last", (moment, value), timeout=max(5, 4 * every))
    return value


@dataclass(frozen=True)
class Tagged:
    """A reading drawn as one text, with its digest for the polls' ETag."""

    text: str
    tag: str

    @classmethod
    def of(cls, text: str) -> "Tagged":
        return cls(text=text, tag=hashlib.sha256(text.encode()).hexdigest()[:20])


@dataclass(frozen=True)
class Part:
    """A piece of a screen that changes on its own (a drawn table, a clock): the id of the
    element that holds it on the page, and its HTML."""

    id: str
    html: str


@dataclass(frozen=True)
class Drawing:
    """A screen drawn as parts in a frame, with the version a screen holds it by.

    `version` goes up only when something changed, so a screen that holds the current version
    has nothing to fetch (the poll's ETag is `tag`, and its answer a 304). `changed` says at
    which version each part last changed, so a screen that holds an older version is sent only
    the parts changed since; `frame_version` is when the frame last changed (a table opened, a
    tournament started), after which a screen needs the whole drawing again. `epoch` names the
    series: a version of another series (the cache was emptied) is answered with everything.
    """

    epoch: str
    version: int
    frame: object
    frame_version: int
    parts: dict[str, str]
    changed: dict[str, int]

    @property
    def tag(self) -> str:
        return f"{self.epoch}.{self.version}"

    def part(self, part_id: str) -> Part:
        return Part(part_id, self.parts[part_id])

    def changed_since(self, held: str | None) -> list[Part] | None:
        """The parts changed after the version `held` (the screen's `tag`), in page order; None
        when the screen needs everything: no version, another series, or the frame changed."""
        epoch, _dot, version = (held or "").partition(".")
        if epoch != self.epoch or not version.isdigit() or int(version) > self.version:
            return None
        if self.frame_version > int(version):
            return None
        return [self.part(part_id) for part_id, at in self.changed.items() if at > int(version)]

    def following(self, *, frame, parts: list[Part]) -> "Drawing":
        """The drawing after this one, given the frame and parts read now: this same drawing
        when nothing changed, so its version (and every screen's ETag) holds."""
        version = self.version + 1
        same = {part.id for part in parts if self.parts.get(part.id) == part.html}
        changed = {part.id: self.changed[part.id] if part.id in same else version for part in parts}
        frame_changed = frame != self.frame or list(changed) != list(self.parts)
        if not frame_changed and version not in changed.values():
            return self
        return Drawing(
            epoch=self.epoch,
            version=version,
            frame=frame,
            frame_version=version if frame_changed else self.frame_version,
            parts={part.id: part.html for part in parts},
            changed=changed,
        )

    @classmethod
    def first(cls, *, frame, parts: list[Part]) -> "Drawing":
        return cls(
            epoch=secrets.token_hex(4),
            version=1,
            frame=frame,
            frame_version=1,
            parts={part.id: part.html for part in parts},
            changed={part.id: 1 for part in parts},
        )


# How long the last drawing is kept to compare the next one with: a screen that comes back
# within it is sent only what changed. Past it the series starts again and screens get everything.
DRAWING_KEPT_SECONDS = 3600


def shared_drawing(key: str, draw: Callable[[], tuple[object, list[Part]]], *, every: float) -> Drawing:
    """A shared reading (above) of a screen drawn as parts: `draw()` returns the frame (plain,
    comparable values: what the page shows around its parts) and the parts. Each new reading is
    compared with the last drawing, which is kept apart for DRAWING_KEPT_SECONDS, so the version
    moves only when a part or the frame changed. Per venue, as every shared reading is."""
    key = venue_key(key)

    def read() -> Drawing:
        last = cache.get(f"{key}:drawing")
        frame, parts = draw()
        if last is None:
            drawing = Drawing.first(frame=frame, parts=parts)
        else:
            drawing = last.following(frame=frame, parts=parts)
        cache.set(f"{key}:drawing", drawing, timeout=DRAWING_KEPT_SECONDS)
        return drawing

    return _shared_reading(key, read, every=every)
