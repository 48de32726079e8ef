"""Waiting lists per game and stakes (CSH-7): first come, first seated; a called player holds
the seat for the game's hold time (3 minutes), then the next one is called. A player who lets
his hold pass moves to the end of the list once; the second time he is off it (WTL-2).

"Call at T, pass at T + hold": `hold_until` is stored on the entry; an ETA task fires at that
moment for precision and the beat reconciler (every 2 s) passes whatever is overdue, so a lost
or duplicated message never skips, repeats or loses a call. Both re-check under the game's lock.
"""

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError, NotFound
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cardroom.task_queue import send_on_commit
from cashgame.locks import game_for_update
from cashgame.models import (
    CashTable,
    Game,
    PlayerSession,
    QueueEvent,
    QueueLogEntry,
    WaitingEntry,
    WaitSource,
    WaitStatus,
)
from cashgame.selectors import waiting_next
from cashgame.selectors.waiting import must_move_next, passed_over
from cashgame.services._common import require_open
from cashgame.services.sessions import session_seat
from players.models import Player

# ETA messages stay well under half the broker's visibility timeout (STYLE.md); a longer hold
# is passed by the reconciler alone.
ETA_HORIZON = timedelta(minutes=25)


def _lock_entry(entry_id: int) -> tuple[Game, WaitingEntry]:
    game_id = WaitingEntry.objects.filter(pk=entry_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound("unknown_entry", _("Unknown waiting-list entry."))
    game = game_for_update(game_id)
    return game, WaitingEntry.objects.select_related("player").get(pk=entry_id)


def queue_log(
    *,
    entry: WaitingEntry,
    event: str,
    at: datetime,
    actor=None,
    reason: str = "",
    ahead_of: list[int] | None = None,
) -> QueueLogEntry:
    """Append one change of a list to its queue log (WTL-1, WTL-2); every service that changes a
    list calls it inside its own transaction, so the log and the list never disagree."""
    return QueueLogEntry.objects.create(
        entry=entry,
        game_id=entry.game_id,
        event=event,
        at=at,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        table_id=entry.table_id,
        seat=entry.seat,
        reason=reason,
        ahead_of=ahead_of or [],
    )


def hold_timer_send(entry: WaitingEntry, *, now: datetime) -> None:
    if entry.hold_until is None or entry.hold_until - now > ETA_HORIZON:
        return
    send_on_commit(
        "cashgame.waiting_pass_due",
        eta=entry.hold_until,
        entry_id=entry.pk,
        due=entry.hold_until.isoformat(),
        venue_id=entry.venue_id,
    )


@transaction.atomic
def waiting_add(
    *, actor, game: Game, player: Player, source: str = WaitSource.IN_PERSON, now: datetime | None = None
) -> WaitingEntry:
    """Put a player at the end of a game's list (in person or by phone)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if source not in WaitSource.values:
        raise DomainError("invalid_source", _("A player is added in person or by phone."))
    game = game_for_update(game.pk)
    if not game.active:
        raise DomainError("game_inactive", _("%s is not offered any more.") % game, rule="CSH-7")
    if WaitingEntry.objects.filter(game=game, player=player, status__in=["waiting", "called"]).exists():
        raise DomainError(
            "already_waiting",
            _("%(player)s is on the %(game)s list already.") % {"player": player.full_name, "game": game},
            rule="CSH-7",
            status_code=409,
        )
    try:
        with transaction.atomic():
            entry = WaitingEntry.objects.create(
                game=game, player=player, source=source, added_at=now, added_by=actor
            )
    except IntegrityError:
        raise DomainError(
            "already_waiting", _("The player is on this list already."), rule="CSH-7", status_code=409
        ) from None
    queue_log(entry=entry, event=QueueEvent.JOIN, at=now, actor=actor)
    return entry


def free_seat(table: CashTable) -> int | None:
    """The lowest seat of `table` that nobody sits in and no called player holds (the caller
    holds the game's lock, so two calls never hold one seat)."""
    taken = set(
        PlayerSession.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True)
    ) | set(
        WaitingEntry.objects.filter(table=table, status=WaitStatus.CALLED, seat__isnull=False).values_list(
            "seat", flat=True
        )
    )
    return next((seat for seat in range(1, table.seats + 1) if seat not in taken), None)


def _call_next(*, game: Game, table: CashTable, now: datetime, actor) -> WaitingEntry | None:
    """Call the first waiting player of the game to the table's free seat, which he holds
    (the caller holds the game lock)."""
    entry = (
        WaitingEntry.objects.filter(game=game, status=WaitStatus.WAITING).order_by("added_at", "pk").first()
    )
    if entry is None:
        return None
    entry.status = WaitStatus.CALLED
    entry.called_at = now
    entry.hold_until = now + timedelta(seconds=game.seat_hold_seconds)
    entry.table = table
    entry.seat = free_seat(table)
    entry.save(update_fields=["status", "called_at", "hold_until", "table", "seat"])
    hold_timer_send(entry, now=now)
    # The player's notice (NOT-1) goes after the commit and after the hold's timer, robustly:
    # whatever becomes of it, the call stands and the hold runs.
    send_on_commit("notices.seat_ready", eta=now, robust=True, entry_id=entry.pk)
    queue_log(entry=entry, event=QueueEvent.CALL, at=now, actor=actor)
    audit_record(
        actor=actor,
        action="cashgame.waiting_call",
        obj=entry,
        after={"table": table.pk, "seat": entry.seat, "hold_until": entry.hold_until},
        now=now,
    )
    return entry


@transaction.atomic
def waiting_call_next(*, actor, game: Game, table: CashTable, now: datetime | None = None) -> WaitingEntry:
    """A seat opened at `table`: call the first player waiting for its game (CSH-7)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    game = game_for_update(game.pk)
    table = CashTable.objects.get(pk=table.pk)
    require_open(table)
    if table.game_id != game.pk:
        raise DomainError("wrong_game", _("%(table)s plays another game.") % {"table": table}, rule="CSH-7")
    entry = _call_next(game=game, table=table, now=now, actor=actor)
    if entry is None:
        raise DomainError("list_empty", _("Nobody is waiting for %s.") % game, rule="CSH-7", status_code=409)
    return entry


def _pass(entry: WaitingEntry, *, game: Game, now: datetime) -> WaitingEntry | None:
    """The called player did not come in time (WTL-2): the first time he moves to the end of the
    list, the second time he leaves it; the next one is called to the same table (the caller
    holds the game lock). Times are the hold's end, so a late timer changes no one's turn."""
    due = entry.hold_until or now
    table = entry.table
    before = {"status": entry.status, "added_at": entry.added_at, "table": entry.table_id, "seat": entry.seat}
    entry.missed_calls += 1
    queue_log(entry=entry, event=QueueEvent.NO_SHOW if entry.missed_calls == 1 else QueueEvent.PASSED, at=due)
    if entry.missed_calls == 1:
        entry.status = WaitStatus.WAITING
        entry.added_at = due
        entry.called_at = entry.hold_until = entry.table = entry.seat = None
        action = "cashgame.waiting_requeue"
    else:
        entry.status = WaitStatus.PASSED
        entry.closed_at = now
        action = "cashgame.waiting_pass"
    entry.save(
        update_fields=[
            "status",
            "missed_calls",
            "added_at",
            "called_at",
            "hold_until",
            "table",
            "seat",
            "closed_at",
        ]
    )
    audit_record(
        actor=None,
        action=action,
        obj=entry,
        before=before,
        after={"status": entry.status, "added_at": entry.added_at, "missed_calls": entry.missed_calls},
        now=now,
    )
    if table is None or not table.is_open:
        return None
    return _call_next(game=game, table=table, now=due, actor=None)


@transaction.atomic
def waiting_pass_due(*, entry_id: int, now: datetime | None = None) -> bool:
    """The timer (CSH-7): idempotent. Passes the entry only if it is still called and its hold
    is over; a duplicated, early or late message is harmless."""
    now = now or timezone.now()
    try:
        game, entry = _lock_entry(entry_id)
    except NotFound:
        return False
    if entry.status != WaitStatus.CALLED or entry.hold_until is None or entry.hold_until > now:
        return False
    _pass(entry, game=game, now=now)
    return True


def waiting_reconcile(*, now: datetime | None = None) -> dict[str, int]:
    """The beat's safety net: pass every called entry whose hold is over (the timer message was
    lost, came early, or was never sent for a hold beyond the ETA horizon)."""
    now = now or timezone.now()
    overdue = list(
        WaitingEntry.objects.filter(status=WaitStatus.CALLED, hold_until__lte=now)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    passed = sum(waiting_pass_due(entry_id=pk, now=now) for pk in overdue)
    return {"overdue": len(overdue), "passed": passed}


@transaction.atomic
def waiting_seat(
    *,
    actor,
    entry: WaitingEntry,
    seat: int,
    table: CashTable | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> PlayerSession:
    """The called (or a waiting) player takes a seat: his session starts, waiting for the
    buy-in at the cage. Seating a waiting player ahead of others who could sit is the floor's
    decision, taken with a reason that the queue log keeps (WTL-2)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    game, entry = _lock_entry(entry.pk)
    ahead = passed_over(entry)
    reason = " ".join((reason or "").split())[:200]
    return _seat(
        actor=actor, game=game, entry=entry, seat=seat, table=table, reason=reason, ahead=ahead, now=now
    )


def _seat(
    *,
    actor,
    game: Game,
    entry: WaitingEntry,
    seat: int,
    table: CashTable | None,
    now: datetime,
    reason: str = "",
    ahead: list[WaitingEntry] | None = None,
) -> PlayerSession:
    """Seat the entry's player (the caller holds the game's lock and decided the turn)."""
    if entry.status not in (WaitStatus.WAITING, WaitStatus.CALLED):
        raise DomainError(
            "not_waiting",
            _("%(player)s is no longer waiting (%(status)s).")
            % {"player": entry.display_name, "status": entry.get_status_display().lower()},
            rule="CSH-7",
            status_code=409,
        )
    if entry.player is None:
        raise DomainError(
            "check_in_first",
            _("Check %s in first: a seat needs a registered player.") % entry.nickname,
            rule="WTL-1",
            status_code=409,
        )
    table = table or entry.table
    if table is None:
        raise DomainError("table_required", _("Say at which table the player sits."))
    if table.game_id != game.pk:
        raise DomainError("wrong_game", _("%(table)s plays another game.") % {"table": table}, rule="CSH-7")
    if ahead and not reason:
        raise DomainError(
            "override_reason_required",
            _("%(player)s would go ahead of %(first)s: say why, and the list keeps the reason.")
            % {"player": entry.display_name, "first": ahead[0].display_name},
            rule="WTL-2",
        )
    session = session_seat(actor=actor, table=table, player=entry.player, seat=seat, now=now)
    entry.status = WaitStatus.SEATED
    entry.table = table
    entry.seat = seat
    entry.closed_at = now
    entry.save(update_fields=["status", "table", "seat", "closed_at"])
    queue_log(
        entry=entry,
        event=QueueEvent.OVERRIDE if ahead else QueueEvent.SEAT,
        at=now,
        actor=actor,
        reason=reason,
        ahead_of=[other.pk for other in ahead or []],
    )
    return session


@transaction.atomic
def waiting_seat_next(*, actor, table: CashTable, seat: int, now: datetime | None = None) -> PlayerSession:
    """One tap on an empty seat: the player next in line for the table's game sits in it
    (CSH-7). A player already called to this table comes first (they hold a seat here; the one
    holding this very seat before the others), then the first one waiting; a player called to
    another table keeps their hold there."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = CashTable.objects.select_related("game").get(pk=table.pk)
    game = game_for_update(table.game_id)
    require_open(table)
    first = must_move_next(table=table)
    if first is not None:
        raise DomainError(
            "must_move_first",
            _("%(player)s moves first, from the must-move game at %(table)s.")
            % {"player": first.player.full_name, "table": first.table},
            rule="WTL-2",
            status_code=409,
        )
    entry = waiting_next(table=table, seat=seat)
    if entry is None:
        raise DomainError("list_empty", _("Nobody is waiting for %s.") % game, rule="CSH-7", status_code=409)
    # The list's own choice: nobody is passed over, whoever it is.
    _game, entry = _lock_entry(entry.pk)
    return _seat(actor=actor, game=game, entry=entry, seat=seat, table=table, now=now)


@transaction.atomic
def waiting_remove(*, actor, entry: WaitingEntry, now: datetime | None = None) -> WaitingEntry:
    """Take a player off the list (he left, or asked to)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    _game, entry = _lock_entry(entry.pk)
    if entry.status not in (WaitStatus.WAITING, WaitStatus.CALLED):
        raise DomainError(
            "not_waiting", _("The player is no longer on the list."), rule="CSH-7", status_code=409
        )
    entry.status = WaitStatus.REMOVED
    entry.closed_at = now
    entry.save(update_fields=["status", "closed_at"])
    queue_log(entry=entry, event=QueueEvent.REMOVE, at=now, actor=actor)
    audit_record(actor=actor, action="cashgame.waiting_remove", obj=entry, now=now)
    return entry
