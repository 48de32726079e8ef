"""Reads of the waiting lists for players' phones and the floor's prompts (WTL-1, WTL-2): a
player's own entries with his position and estimated wait, each game's recent seat openings,
the interest lists ready for a table, and the must-move player next for a main game's seat."""

from datetime import datetime

from django.db.models import Count, Q
from django.utils import timezone

from cashgame.models import CashTable, Game, PlayerSession, TableStatus, WaitingEntry, WaitStatus
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
