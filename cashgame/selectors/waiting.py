"""Reads of the waiting lists for players' phones and the floor's prompts (WTL-1, WTL-2): a
player's own entries with his position and estimated wait, each game's recent seat openings,
the interest lists ready for a table, and the must-move player next for a main game's seat."""

from datetime import datetime

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.selectors import venue_get
from cashgame.models import (
    CashTable,
    Game,
    PlayerSession,
    QueueEvent,
    QueueLogEntry,
    TableStatus,
    WaitingEntry,
    WaitStatus,
)
from poker.waitlist import WINDOW_SECONDS, WaitRange, estimate


def seat_openings(*, game_ids: list[int], now: datetime) -> dict[int, list[float]]:
    """{game id: the Unix times seats opened at its tables in the last two hours}: a seat opens
    when a player's session ends (one query)."""
    since = datetime.fromtimestamp(now.timestamp() - WINDOW_SECONDS, tz=now.tzinfo)
    openings: dict[int, list[float]] = {pk: [] for pk in game_ids}
    for game_id, ended_at in PlayerSession.objects.filter(
        table__game_id__in=game_ids, ended_at__gte=since, ended_at__lte=now
    ).values_list("table__game_id", "ended_at"):
        openings[game_id].append(ended_at.timestamp())
    return openings


def more_time_refusal(entry: WaitingEntry, *, minutes: int, now: datetime) -> str | None:
    """Why the called player cannot ask for more time now, or None when he can (the phone's
    button is shown disabled with this reason)."""
    if minutes <= 0:
        return _("This room does not hold seats longer on request. Come to the floor now.")
    if entry.more_time_at is not None:
        return _("You asked for more time already. Come to the floor now.")
    if entry.status != WaitStatus.CALLED or entry.hold_until is None or entry.hold_until <= now:
        return _("You can ask for more time only while your seat is held for you.")
    return None


def ahead_in_line(entry: WaitingEntry, queue: list[WaitingEntry], seated_player_ids: set[int]) -> list:
    """The players seating `entry` would pass over (WTL-2), from his game's `queue` in its order:
    those waiting before him who could sit now. A phone joiner who has not arrived (no player
    yet) and a player seated at another table cannot, so they are not passed over; a called
    player's turn has come, so he passes over nobody."""
    if entry.status != WaitStatus.WAITING:
        return []
    ahead = []
    for other in queue:
        if other.pk == entry.pk:
            return ahead
        could_sit = other.player_id is not None and other.player_id not in seated_player_ids
        if other.status == WaitStatus.WAITING and could_sit:
            ahead.append(other)
    return ahead


def passed_over(entry: WaitingEntry) -> list[WaitingEntry]:
    """`ahead_in_line` read from the database (two queries; the caller holds the game's lock when
    it acts on the answer)."""
    queue = list(
        WaitingEntry.objects.filter(game_id=entry.game_id, status=WaitStatus.WAITING)
        .select_related("player")
        .order_by("added_at", "pk")
    )
    seated = set(
        PlayerSession.objects.filter(
            player_id__in=[other.player_id for other in queue if other.player_id], ended_at__isnull=True
        ).values_list("player_id", flat=True)
    )
    return ahead_in_line(entry, queue, seated)


def game_running(game: Game) -> bool:
    return CashTable.objects.filter(game=game, status=TableStatus.OPEN).exists()


def waiting_status(*, entry_ids: list[int], now: datetime | None = None) -> list[dict]:
    """A player's entries as his status page shows them (WTL-1, WTL-2): per entry its game, its
    state, his position among those waiting, the estimated wait as a range (None: not enough
    recent turnover), and when called the table, seat and seconds his hold has left."""
    now = now or timezone.now()
    entries = list(
        WaitingEntry.objects.filter(pk__in=entry_ids)
        .select_related("game", "table")
        .order_by("game__name", "pk")
    )
    game_ids = sorted({entry.game_id for entry in entries})
    openings = seat_openings(game_ids=game_ids, now=now)
    running = set(
        CashTable.objects.filter(game_id__in=game_ids, status=TableStatus.OPEN).values_list(
            "game_id", flat=True
        )
    )
    queues: dict[int, list[int]] = {pk: [] for pk in game_ids}
    for game_id, pk in (
        WaitingEntry.objects.filter(game_id__in=game_ids, status=WaitStatus.WAITING)
        .order_by("added_at", "pk")
        .values_list("game_id", "pk")
    ):
        queues[game_id].append(pk)
    more_minutes = venue_get().waiting_more_time_minutes
    rows = []
    for entry in entries:
        position = queues[entry.game_id].index(entry.pk) + 1 if entry.status == WaitStatus.WAITING else None
        wait: WaitRange | None = None
        if position is not None and entry.game_id in running:
            wait = estimate(openings=openings[entry.game_id], now=now.timestamp(), position=position)
        hold = None
        if entry.status == WaitStatus.CALLED and entry.hold_until is not None:
            hold = max(0, int((entry.hold_until - now).total_seconds()))
        rows.append(
            {
                "entry": entry,
                "game": entry.game,
                "status": entry.status,
                "position": position,
                "waiting": len(queues[entry.game_id]),
                "running": entry.game_id in running,
                "wait": wait,
                "hold_seconds": hold,
                "hold_text": None if hold is None else f"{hold // 60}:{hold % 60:02d}",
                "moved_to_end": entry.status == WaitStatus.WAITING and entry.missed_calls > 0,
                "more_time_minutes": more_minutes,
                "more_time_refusal": more_time_refusal(entry, minutes=more_minutes, now=now)
                if entry.status == WaitStatus.CALLED
                else None,
            }
        )
    return rows


def joinable_games() -> list[dict]:
    """The games a player may join from his phone, each with its waiting count and whether a
    table runs it (a game not running collects an interest list). Two queries."""
    games = list(
        Game.objects.filter(active=True).annotate(
            waiting_count=Count("waiting", filter=Q(waiting__status=WaitStatus.WAITING))
        )
    )
    running = set(
        CashTable.objects.filter(status=TableStatus.OPEN).values_list("game_id", flat=True).distinct()
    )
    return [{"game": game, "waiting": game.waiting_count, "running": game.pk in running} for game in games]


def interest_ready() -> list[dict]:
    """Interest lists ready for a table (WTL-2): games no table runs, with a threshold, and at
    least that many players waiting; each with the closed tables the floor may open for it."""
    running = set(CashTable.objects.filter(status=TableStatus.OPEN).values_list("game_id", flat=True))
    games = (
        Game.objects.filter(active=True, interest_threshold__gt=0)
        .exclude(pk__in=running)
        .annotate(waiting_count=Count("waiting", filter=Q(waiting__status=WaitStatus.WAITING)))
    )
    ready = [game for game in games if game.waiting_count >= game.interest_threshold]
    if not ready:
        return []
    closed = list(CashTable.objects.filter(status=TableStatus.CLOSED).order_by("number"))
    return [
        {
            "game": game,
            "waiting": game.waiting_count,
            # The game's own closed tables first: they need no change of game.
            "tables": sorted(closed, key=lambda table, game=game: (table.game_id != game.pk, table.number)),
        }
        for game in ready
    ]


def must_move_next(*, table: CashTable) -> PlayerSession | None:
    """The player a seat at a main game's `table` goes to first (WTL-2): the one seated longest
    at a table of a must-move game that feeds this game. None when no must-move game feeds it."""
    return (
        PlayerSession.objects.filter(
            ended_at__isnull=True,
            table__status=TableStatus.OPEN,
            table__game__must_move_for_id=table.game_id,
        )
        .select_related("player", "table")
        .order_by("started_at", "pk")
        .first()
    )


SEATED_EVENTS = (QueueEvent.SEAT, QueueEvent.OVERRIDE)


def queue_history(*, entry: WaitingEntry, now: datetime | None = None) -> dict:
    """ "Was I skipped?" (WTL-2): the entry's own queue log, and every player of the same game
    who joined after him and sat down while he was on the list, each with why: the floor's
    reason for an override, or what the log says about him at that moment (he had moved to the
    end after a missed call, or had not checked in yet after joining from his phone). Three
    queries, read from the append-only log."""
    now = now or timezone.now()
    own = list(
        QueueLogEntry.objects.filter(entry=entry).select_related("actor", "table").order_by("at", "pk")
    )
    joined = next((row.at for row in own if row.event == QueueEvent.JOIN), entry.added_at)
    ended = entry.closed_at or now
    log = list(
        QueueLogEntry.objects.filter(game_id=entry.game_id, at__gte=joined, at__lte=ended)
        .exclude(entry=entry)
        .select_related("entry__player", "actor", "table")
        .order_by("at", "pk")
    )
    joins = {row.entry_id: row.at for row in log if row.event == QueueEvent.JOIN}
    moved_at = next((row.at for row in own if row.event == QueueEvent.NO_SHOW), None)
    checked_in_at = next((row.at for row in own if row.event == QueueEvent.CHECK_IN), None)
    ahead = []
    for row in log:
        if row.event not in SEATED_EVENTS or row.entry_id not in joins:
            continue
        if row.event == QueueEvent.OVERRIDE and entry.pk in row.ahead_of:
            why = _("The floor seated this player ahead of you: %s") % row.reason
        elif moved_at is not None and moved_at <= row.at:
            why = _("You had moved to the end of the list after a missed call.")
        elif entry.is_remote and (checked_in_at is None or checked_in_at > row.at):
            why = _("You had not checked in at the floor yet.")
        else:
            why = _("Seated in the list's order at that moment.")
        ahead.append({"entry": row.entry, "joined_at": joins[row.entry_id], "seated": row, "why": why})
    return {
        "events": own,
        "ahead": ahead,
        "skipped": any(r["seated"].event == QueueEvent.OVERRIDE for r in ahead),
    }
