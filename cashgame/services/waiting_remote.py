"""Players join waiting lists from their phones (WTL-1), leave them, are checked in on arrival,
and their phone numbers are erased 24 hours after they leave the lists (WTL-3).

A remote join has no staff member behind it: the venue's switch and a per-address limit stop
abuse, every check runs before anything is written, and a refusal writes nothing. The player
gets a signed, expiring status link naming his entries (`status_token`); nothing else about him
is in it.
"""

import hashlib
import hmac
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError, NotFound
from cardroom.names import person_name_clean
from cardroom.phones import phone_normalise
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cardroom.venues import venue_default, venue_id_current
from cashgame.locks import game_for_update
from cashgame.models import (
    WAITING_STATUSES,
    Game,
    QueueEvent,
    WaitingEntry,
    WaitSource,
    WaitStatus,
)
from cashgame.selectors.waiting import more_time_refusal
from cashgame.services.waiting import hold_timer_send, queue_log
from players.models import Player

STATUS_SALT = "cashgame.waiting-status"
# A status link works this long after the join: a day at the room, not a lasting key.
STATUS_MAX_AGE = timedelta(hours=24)
# The phone number stays this long after the entry left the list (WTL-3).
PHONE_KEPT_AFTER = timedelta(hours=24)
MAX_GAMES_PER_JOIN = 5
RATE_WINDOW = timedelta(hours=1)
# Attempts (refused ones too) one address may make per window, as a multiple of the joins it may
# make: enough for typing mistakes, too few to try card numbers one after another.
ATTEMPTS_PER_JOIN = 3
NICKNAME_MAX = 30


def address_key(address: str) -> str:
    """The network address as the rate limit counts it: an HMAC, so the address itself is
    never stored."""
    return hmac.new(settings.SECRET_KEY.encode(), (address or "").encode(), hashlib.sha256).hexdigest()


def _attempts_exceeded(key: str, *, limit: int, now: datetime) -> bool:
    """Count one attempt from the address in this hour's window (in the cache: a refusal writes
    nothing to the database); True once it passes the limit."""
    window = int(now.timestamp() // RATE_WINDOW.total_seconds())
    name = f"wtl-join:{key}:{window}"
    cache.add(name, 0, timeout=int(RATE_WINDOW.total_seconds()) * 2)
    try:
        return cache.incr(name) > limit
    except ValueError:  # evicted between add and incr: count from here
        cache.set(name, 1, timeout=int(RATE_WINDOW.total_seconds()) * 2)
        return False


def status_token(entry_ids: list[int], *, now: datetime, venue_id: int | None = None) -> str:
    """The status link's token: the entries, the join's time and venue (VEN-1), signed."""
    payload = {"e": sorted(entry_ids), "t": int(now.timestamp()), "v": venue_id or venue_id_current()}
    return signing.dumps(payload, salt=STATUS_SALT, compress=True)


def status_entry_ids(token: str, *, now: datetime | None = None) -> list[int]:
    """The entries a status link names; a refusal for a link that was altered or has expired.
    The link's time is in the signed payload, so `now` decides expiry (tests pin it). A link is
    its venue's (VEN-1): at another venue's address it is "not found", not sent on, since the
    link the player was given names his venue's address already; one made before links named
    their venue is the default venue's, where every earlier entry went."""
    now = now or timezone.now()
    try:
        payload = signing.loads(token, salt=STATUS_SALT)
        issued = int(payload["t"])
        ids = [int(pk) for pk in payload["e"]]
        venue_id = int(payload.get("v") or venue_default().pk)
    except (signing.BadSignature, KeyError, TypeError, ValueError, AttributeError):
        raise DomainError(
            "link_invalid", _("This link is not valid. Open the one you were given."), rule="WTL-1"
        ) from None
    if venue_id != venue_id_current():
        raise NotFound(
            "link_other_venue",
            _("This link is for another room's page. Open it exactly as you were given it."),
            rule="VEN-1",
        )
    if now.timestamp() - issued > STATUS_MAX_AGE.total_seconds():
        raise DomainError(
            "link_expired",
            _("This link has expired. Ask at the desk, or join the list again."),
            rule="WTL-1",
            status_code=410,
        )
    return ids


def _clean_nickname(nickname: str) -> str:
    nickname = " ".join((nickname or "").split())
    if not nickname:
        raise DomainError("nickname_required", _("Give a nickname the floor can call you by."), rule="WTL-1")
    if len(nickname) > NICKNAME_MAX:
        raise DomainError(
            "invalid_nickname", _("A nickname is at most %d letters.") % NICKNAME_MAX, rule="WTL-1"
        )
    return person_name_clean(nickname, label=_("Nickname"), rule="WTL-1")


@transaction.atomic
def waiting_join_remote(
    *,
    game_ids: list[int],
    nickname: str,
    phone: str = "",
    card_number: str = "",
    address: str,
    now: datetime | None = None,
) -> tuple[list[WaitingEntry], str]:
    """A player joins one or more games' lists from his phone (WTL-1); (his entries, his status
    link's token). Every check comes before the first write, so a refusal changes nothing."""
    now = now or timezone.now()
    venue = venue_get()
    if not venue.remote_join_enabled:
        raise DomainError(
            "remote_join_off",
            _("Joining from a phone is switched off just now. Ask at the desk."),
            rule="WTL-1",
            status_code=403,
        )
    key = address_key(address)
    if _attempts_exceeded(key, limit=venue.remote_joins_per_hour * ATTEMPTS_PER_JOIN, now=now):
        raise DomainError(
            "too_many_joins",
            _("Too many joins from this connection. Try again in an hour, or ask at the desk."),
            rule="WTL-1",
            status_code=429,
        )
    nickname = _clean_nickname(nickname)
    phone = phone_normalise(phone)
    card_number = (card_number or "").strip()
    if not phone and not card_number:
        raise DomainError(
            "contact_required", _("Give your phone number or your membership card number."), rule="WTL-1"
        )
    wanted = sorted({int(pk) for pk in game_ids})
    if not wanted:
        raise DomainError("game_required", _("Choose at least one game."), rule="WTL-1")
    if len(wanted) > MAX_GAMES_PER_JOIN:
        raise DomainError(
            "too_many_games", _("Join at most %d games at once.") % MAX_GAMES_PER_JOIN, rule="WTL-1"
        )
    recent = WaitingEntry.objects.filter(join_address=key, added_at__gte=now - RATE_WINDOW).count()
    if recent + len(wanted) > venue.remote_joins_per_hour:
        raise DomainError(
            "too_many_joins",
            _("Too many joins from this connection. Try again in an hour, or ask at the desk."),
            rule="WTL-1",
            status_code=429,
        )
    player = None
    if card_number:
        player = Player.objects.filter(card_number=card_number).first()
        if player is None:
            raise DomainError(
                "unknown_card", _("No member has card %s. Check the number.") % card_number, rule="WTL-1"
            )
    games = [game_for_update(pk) for pk in wanted if Game.objects.filter(pk=pk, active=True).exists()]
    if len(games) != len(wanted):
        raise NotFound("unknown_game", _("That game is not offered. Choose one from the list."), rule="WTL-1")
    for game in games:
        open_entries = WaitingEntry.objects.filter(game=game, status__in=WAITING_STATUSES)
        if (phone and open_entries.filter(phone=phone).exists()) or (
            player and open_entries.filter(player=player).exists()
        ):
            raise DomainError(
                "already_waiting",
                _("You are on the %s list already.") % game.name,
                rule="WTL-1",
                status_code=409,
            )
    entries = []
    try:
        with transaction.atomic():
            for game in games:
                entry = WaitingEntry.objects.create(
                    game=game,
                    player=player,
                    nickname=nickname,
                    phone=phone,
                    join_address=key,
                    source=WaitSource.REMOTE,
                    added_at=now,
                    added_by=None,
                )
                audit_record(actor=None, action="cashgame.waiting_join_remote", obj=entry, now=now)
                queue_log(entry=entry, event=QueueEvent.JOIN, at=now)
                entries.append(entry)
    except IntegrityError:
        raise DomainError(
            "already_waiting", _("You are on this list already."), rule="WTL-1", status_code=409
        ) from None
    return entries, status_token([entry.pk for entry in entries], now=now, venue_id=venue.pk)


@transaction.atomic
def waiting_leave(*, token: str, entry_id: int, now: datetime | None = None) -> WaitingEntry:
    """The player takes himself off one list from his status page (WTL-1)."""
    now = now or timezone.now()
    if entry_id not in status_entry_ids(token, now=now):
        raise DomainError(
            "link_invalid", _("This link is not valid. Open the one you were given."), rule="WTL-1"
        )
    game_id = WaitingEntry.objects.filter(pk=entry_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound("unknown_entry", _("Unknown waiting-list entry."))
    game_for_update(game_id)
    entry = WaitingEntry.objects.get(pk=entry_id)
    if entry.status not in WAITING_STATUSES:
        raise DomainError("not_waiting", _("You are no longer on this list."), rule="WTL-1", status_code=409)
    before = {"status": entry.status}
    entry.status = WaitStatus.REMOVED
    entry.closed_at = now
    entry.save(update_fields=["status", "closed_at"])
    queue_log(entry=entry, event=QueueEvent.LEAVE, at=now)
    audit_record(
        actor=None,
        action="cashgame.waiting_leave",
        obj=entry,
        before=before,
        after={"status": entry.status},
        note="left from the player's phone",
        now=now,
    )
    return entry


@transaction.atomic
def waiting_more_time(*, token: str, entry_id: int, now: datetime | None = None) -> WaitingEntry:
    """The called player asks from his phone to hold his seat a little longer (WTL-2): once per
    entry, for the venue's minutes, while the hold runs. The floor sees it on the list; the
    hold's timer is sent again for the new end (the old message finds the hold not over and
    does nothing)."""
    now = now or timezone.now()
    if entry_id not in status_entry_ids(token, now=now):
        raise DomainError(
            "link_invalid", _("This link is not valid. Open the one you were given."), rule="WTL-1"
        )
    minutes = venue_get().waiting_more_time_minutes
    game_id = WaitingEntry.objects.filter(pk=entry_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound("unknown_entry", _("Unknown waiting-list entry."))
    game_for_update(game_id)
    entry = WaitingEntry.objects.get(pk=entry_id)
    refusal = more_time_refusal(entry, minutes=minutes, now=now)
    if refusal is not None:
        raise DomainError("more_time_refused", refusal, rule="WTL-2", status_code=409)
    before = {"hold_until": entry.hold_until}
    entry.hold_until += timedelta(minutes=minutes)
    entry.more_time_at = now
    entry.save(update_fields=["hold_until", "more_time_at"])
    hold_timer_send(entry, now=now)
    queue_log(entry=entry, event=QueueEvent.MORE_TIME, at=now)
    audit_record(
        actor=None,
        action="cashgame.waiting_more_time",
        obj=entry,
        before=before,
        after={"hold_until": entry.hold_until},
        note="asked from the player's phone",
        now=now,
    )
    return entry


@transaction.atomic
def waiting_phones_erase(*, now: datetime | None = None) -> int:
    """Erase the phone numbers (and hashed addresses) of entries that left their list more than
    24 hours ago (WTL-3); the number of entries erased. Idempotent: the beat runs it hourly."""
    now = now or timezone.now()
    stale = WaitingEntry.objects.exclude(status__in=WAITING_STATUSES).filter(
        closed_at__lte=now - PHONE_KEPT_AFTER
    )
    erased = stale.exclude(phone="", join_address="").update(phone="", join_address="")
    if erased:
        audit_record(
            actor=None,
            action="cashgame.waiting_phones_erase",
            object_type="cashgame.waitingentry",
            after={"entries": erased},
            now=now,
        )
    return erased
