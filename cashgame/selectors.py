"""Reads of the cash games: tables and their seats, the hand log, sessions, waiting lists,
drop-box counts, jackpot claims and rulings."""

from collections import defaultdict
from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from cashgame.models import (
    WAITING_STATUSES,
    CashTable,
    DropBoxCount,
    Game,
    Hand,
    HandStatus,
    JackpotClaim,
    JackpotShare,
    PlayerSession,
    Ruling,
    WaitingEntry,
    WaitStatus,
)
from cashier.models import AccountKind
from cashier.selectors import account_amount
from players.models import Player
from players.selectors import public_names


def game_list(*, active_only: bool = False) -> QuerySet[Game]:
    games = Game.objects.all()
    return games.filter(active=True) if active_only else games


def table_list() -> QuerySet[CashTable]:
    """Every table with its game and the number of players seated (one query)."""
    # Meta.ordering does not apply to an aggregating query: order explicitly.
    return (
        CashTable.objects.select_related("game")
        .annotate(seated=Count("sessions", filter=Q(sessions__ended_at__isnull=True)))
        .order_by("number")
    )


def table_chips_in_play(*, table: CashTable) -> int:
    return account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference)


def table_sessions(*, table: CashTable) -> list[PlayerSession]:
    return list(
        PlayerSession.objects.filter(table=table, ended_at__isnull=True)
        .select_related("player")
        .order_by("seat")
    )


def table_seats(*, table: CashTable) -> list[dict]:
    """Seat 1..N with the open session on it, or None: what the dealer tablet shows."""
    by_seat = {session.seat: session for session in table_sessions(table=table)}
    return [{"seat": seat, "session": by_seat.get(seat)} for seat in range(1, table.seats + 1)]


def table_current_hand(*, table: CashTable) -> Hand | None:
    return Hand.objects.filter(table=table, status=HandStatus.IN_PROGRESS).first()


def hand_list(*, table: CashTable | None = None, limit: int | None = 50) -> QuerySet[Hand]:
    """The newest hands first: the last `limit` (the pages), or all (None: the API pages them)."""
    hands = Hand.objects.select_related("table")
    if table is not None:
        hands = hands.filter(table=table)
    hands = hands.order_by("-started_at", "-pk")
    return hands if limit is None else hands[:limit]


def session_list(*, table: CashTable | None = None, ended: bool | None = None) -> QuerySet[PlayerSession]:
    """Sessions, ended ones only (`ended=True`), open ones only (`ended=False`) or all (None)."""
    sessions = PlayerSession.objects.select_related("player", "table", "table__game")
    if ended is not None:
        sessions = sessions.filter(ended_at__isnull=not ended)
    if table is not None:
        sessions = sessions.filter(table=table)
    # pk last: a total order, so the API's pages neither repeat nor skip a session.
    return sessions.order_by("table__number", "seat", "-started_at", "-pk")


def player_by_card(*, card_number: str) -> Player | None:
    return Player.objects.filter(card_number=(card_number or "").strip()).first()


def waiting_board(*, now: datetime | None = None) -> list[dict]:
    """The room's screens (CSH-7): per active game, the players waiting in order and those called,
    with the seconds their hold has left. Two queries, whatever the number of games."""
    now = now or timezone.now()
    games = list(game_list(active_only=True))
    entries = defaultdict(list)
    for entry in (
        WaitingEntry.objects.filter(status__in=WAITING_STATUSES, game__in=games)
        .select_related("player", "table")
        .order_by("added_at", "pk")
    ):
        entries[entry.game_id].append(entry)
    # One name per player across the whole board, told apart from every other name on it (WTL-3).
    names = public_names(entry.player for rows in entries.values() for entry in rows)
    board = []
    for game in games:
        rows = []
        for position, entry in enumerate(entries[game.pk], start=1):
            hold = None
            if entry.status == WaitStatus.CALLED and entry.hold_until is not None:
                hold = max(0, int((entry.hold_until - now).total_seconds()))
            rows.append(
                {
                    "position": position,
                    "entry": entry,
                    "hold_seconds": hold,
                    "hold_text": None if hold is None else f"{hold // 60}:{hold % 60:02d}",
                    "name": names[entry.player_id],
                }
            )
        board.append({"game": game, "entries": rows})
    return board


def waiting_list() -> QuerySet[WaitingEntry]:
    """Everyone waiting or called, per game in the order they came (CSH-7)."""
    return (
        WaitingEntry.objects.filter(status__in=WAITING_STATUSES)
        .select_related("player")
        .order_by("game", "added_at", "pk")
    )


def public_name(player: Player) -> str:
    """What a public screen shows for one player alone (WTL-3); see players.selectors.public_names
    for a list of them, told apart."""
    return public_names([player])[player.pk]


def dropbox_count_list(*, table: CashTable | None = None) -> QuerySet[DropBoxCount]:
    # The model's order (newest period first, by table) with pk last: a total order for pages.
    counts = DropBoxCount.objects.select_related("table", "counted_by").order_by(
        "-period_end", "table__number", "-pk"
    )
    return counts.filter(table=table) if table is not None else counts


def jackpot_claim_list() -> QuerySet[JackpotClaim]:
    return (
        JackpotClaim.objects.select_related("hand", "hand__table")
        .prefetch_related("shares__player", "shares__transaction")
        .order_by("-created_at", "-pk")
    )


def jackpot_unpaid_shares() -> QuerySet[JackpotShare]:
    return (
        JackpotShare.objects.filter(transaction__isnull=True, amount_cents__gt=0)
        .select_related("player", "claim", "claim__hand__table")
        .order_by("claim", "pk")
    )


def ruling_list(*, table: CashTable | None = None) -> QuerySet[Ruling]:
    rulings = Ruling.objects.select_related("table", "hand", "staff")
    return rulings.filter(table=table) if table is not None else rulings
