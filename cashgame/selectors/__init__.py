"""Reads of the cash games: tables and their seats, the hand log, sessions, waiting lists,
drop-box counts, jackpot claims and rulings."""

from collections import defaultdict
from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from cashgame.models import (
    STATE_ACTIONS,
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
    SeatState,
    SessionEvent,
    TableStatus,
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


def session_last_receipt(*, session: PlayerSession):
    """The cashier's transaction of the session's latest buy-in, top-up or cash-out (its receipt),
    or None when it moved no money (a cash-out of 0.00 EUR)."""
    event = (
        SessionEvent.objects.filter(session=session, transaction__isnull=False)
        .select_related("transaction__player")
        .order_by("-pk")
        .first()
    )
    return event.transaction if event is not None else None


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
    # One name per player across the whole board, told apart from every other name on it (WTL-3);
    # a phone join without a card shows the nickname he chose.
    names = public_names(entry.player for rows in entries.values() for entry in rows if entry.player_id)
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
                    "name": names[entry.player_id] if entry.player_id else entry.nickname,
                }
            )
        board.append({"game": game, "entries": rows})
    return board


def waiting_board_tables(board: list[dict]) -> list[dict]:
    """Adds to each game of `waiting_board` the tables running it (`tables`: their numbers) and
    the seats free at them (`free_seats`): nobody sits there and no called player holds them
    (CSH-7). One query: the holds come from the board's own entries."""
    tables = (
        CashTable.objects.filter(status=TableStatus.OPEN, game__in=[block["game"] for block in board])
        .annotate(seated=Count("sessions", filter=Q(sessions__ended_at__isnull=True)))
        .order_by("number")
        .values("pk", "number", "game_id", "seats", "seated")
    )
    held: dict[int, int] = defaultdict(int)
    for block in board:
        for row in block["entries"]:
            if row["entry"].status == WaitStatus.CALLED and row["entry"].table_id:
                held[row["entry"].table_id] += 1
    running: dict[int, list[dict]] = defaultdict(list)
    for table in tables:
        running[table["game_id"]].append(table)
    for block in board:
        games_tables = running[block["game"].pk]
        block["tables"] = [table["number"] for table in games_tables]
        block["free_seats"] = sum(
            max(0, table["seats"] - table["seated"] - held[table["pk"]]) for table in games_tables
        )
    return board


def waiting_queue(*, table: CashTable, seat: int | None = None) -> list[WaitingEntry]:
    """Who may take an empty seat at `table`, in the order they are seated (CSH-7): the players
    called to this table (they hold a seat here) by the time they were called, the one holding
    `seat` itself first, then those waiting for its game in the order they came. Players called
    to another table hold a seat there and are left out. One query."""
    entries = list(
        WaitingEntry.objects.filter(game_id=table.game_id)
        .filter(Q(status=WaitStatus.WAITING) | Q(status=WaitStatus.CALLED, table_id=table.pk))
        .select_related("player")
        .order_by("added_at", "pk")
    )
    called = sorted(
        (e for e in entries if e.status == WaitStatus.CALLED),
        key=lambda e: (seat is None or e.seat != seat, e.called_at, e.pk),
    )
    return called + [e for e in entries if e.status == WaitStatus.WAITING]


def waiting_next(*, table: CashTable, seat: int | None = None) -> WaitingEntry | None:
    """The player the empty `seat` (or the next empty seat) at `table` goes to (see
    waiting_queue)."""
    queue = waiting_queue(table=table, seat=seat)
    return queue[0] if queue else None


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


def entry_public_name(entry: WaitingEntry) -> str:
    """A waiting player's public name: his player's, or the nickname of a phone join (WTL-3)."""
    return public_name(entry.player) if entry.player_id else entry.nickname


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


def waiting_counts() -> list[dict]:
    """Per active game, by name: how many players wait and how many are called (one query).
    The order is explicit: PostgreSQL returns an aggregate's groups in any order."""
    games = game_list(active_only=True).annotate(
        waiting_count=Count("waiting", filter=Q(waiting__status=WaitStatus.WAITING)),
        called_count=Count("waiting", filter=Q(waiting__status=WaitStatus.CALLED)),
    )
    return [
        {"game": game, "waiting": game.waiting_count, "called": game.called_count}
        for game in games.order_by("name", "pk")
    ]


def seat_actions(session: PlayerSession | None, *, table: CashTable, dealt: bool) -> list[str]:
    """What the floor may do with a seat in its state, and nothing else: an empty seat of an
    open table takes a player; a seated player's state actions are the ones his state allows
    (CSH-6); a no-show's seat is freed; a player with chips moves or cashes out at the cage,
    but not while he is dealt in the hand in progress (CSH-2)."""
    if session is None:
        return ["seat"] if table.is_open else []
    actions = [action for action, (states, _target) in STATE_ACTIONS.items() if session.state in states]
    if dealt:
        return actions
    actions.append("move")
    if session.state == SeatState.AWAITING_BUY_IN and not session.invested_cents:
        actions.append("release")
    else:
        actions.append("cash_out")
    return actions


def move_targets(*, session: PlayerSession) -> list[dict]:
    """The free seats a seated player may move to: his own table first, then the other open
    tables of the room (two queries)."""
    tables = list(CashTable.objects.filter(status=TableStatus.OPEN).select_related("game").order_by("number"))
    taken = set(
        PlayerSession.objects.filter(table__in=tables, ended_at__isnull=True).values_list("table_id", "seat")
    )
    targets = [
        {
            "table": table,
            "same": table.pk == session.table_id,
            "seats": [seat for seat in range(1, table.seats + 1) if (table.pk, seat) not in taken],
        }
        for table in tables
    ]
    return sorted(targets, key=lambda target: not target["same"])
