"""What the seat panel and the waiting-list page offer, checked against the house rules before it
is offered: a button the rules would refuse now is shown disabled with the reason in plain words,
or not at all (the services check every rule again when the button is tapped).

- who may take an empty seat, and how: seated at once, checked in first (a phone join without a
  card, WTL-1), or not now (the player sits at another table);
- the persons found for a phone joiner's check-in, each with what stops them taking the seat;
- the seat-state taps a seated player's chips allow (CSH-5, CSH-6);
- the free places a waiting player may be seated in, and the tables the next may be called to.
"""

from collections import defaultdict

from django.utils.translation import gettext as _

from cardroom.money import format_eur
from cashgame.models import (
    STATE_ACTIONS,
    WAITING_STATUSES,
    CashTable,
    HandStatus,
    PlayerSession,
    SeatState,
    TableStatus,
    WaitingEntry,
    WaitStatus,
)
from cashgame.seat_layout import FIRST_HAND_STATES
from cashgame.selectors import waiting_queue
from cashgame.selectors.waiting import ahead_in_line, must_move_next
from players.selectors import player_search

# How a player on the list takes an empty seat.
SEAT = "seat"  # one tap: the seat is theirs
CHECK_IN = "check_in"  # a phone join without a card: find or register the person first (WTL-1)
BLOCKED = "blocked"  # not now; the reason says why
# Rows the panel lists: the next and a few after; the waiting-list page has them all.
PANEL_ROWS = 8
FOUND_ROWS = 8


def _open_sessions(player_ids) -> dict[int, PlayerSession]:
    """{player id: their open session, with its table} (one query)."""
    ids = {pk for pk in player_ids if pk}
    if not ids:
        return {}
    return {
        session.player_id: session
        for session in PlayerSession.objects.filter(player_id__in=ids, ended_at__isnull=True).select_related(
            "table"
        )
    }


def seated_reason(session: PlayerSession) -> str:
    """Why a player who sits at a table cannot take another seat (one seat a player)."""
    return _("Plays at %(table)s, seat %(seat)d: a player has one seat at a time.") % {
        "table": session.table,
        "seat": session.seat,
    }


def _candidate(entry: WaitingEntry, sessions: dict[int, PlayerSession]) -> dict:
    row = {"entry": entry, "name": entry.display_name, "mode": SEAT, "reason": ""}
    if entry.player_id is None:
        row.update(mode=CHECK_IN, reason=_("Joined from a phone without a card: check in first."))
    elif entry.player_id in sessions:
        row.update(mode=BLOCKED, reason=seated_reason(sessions[entry.player_id]))
    return row


def _in_list_order(queue: list[WaitingEntry]) -> list[WaitingEntry]:
    """The seat's queue puts a called player first; the list's order is the order they came."""
    return sorted(queue, key=lambda entry: (entry.added_at, entry.pk))


def _dealt_at_own_table(session: PlayerSession) -> bool:
    table = session.table
    if not table.hand_in_progress:
        return False
    hand = table.hands.filter(status=HandStatus.IN_PROGRESS).only("dealt_in").first()
    return hand is not None and session.seat in hand.dealt_seats


def empty_seat_offer(*, table: CashTable, seat: int, entry_id: int | None = None, query: str = "") -> dict:
    """What the panel of an empty seat at an open table offers (CSH-7, WTL-1, WTL-2):

    - `must_move`: the must-move player who moves here first, with `must_move_reason` when the
      move must wait (they are dealt in the hand in progress at their table);
    - `candidates`: the players on the list for this seat in their order (the one holding this
      very seat first), each with its `mode` and `reason`;
    - `main`: the next on the list, the panel's main action, unless a must-move player comes
      first; `seat_next`: they take the seat with one tap (the service refuses it otherwise);
    - `check_in`: the phone joiner being checked in here (the one asked for, else the main one),
      with the persons `found` for `query`;
    - `others`: the rest of the list, to seat instead (the floor's decision).
    """
    must_move = must_move_next(table=table)
    must_move_reason = ""
    if must_move is not None and _dealt_at_own_table(must_move):
        must_move_reason = _(
            "%(player)s is dealt in the hand in progress at %(table)s: the move waits until it ends."
        ) % {"player": must_move.player.full_name, "table": must_move.table}
    whole_queue = waiting_queue(table=table, seat=seat)
    queue = whole_queue[:PANEL_ROWS]
    sessions = _open_sessions(entry.player_id for entry in whole_queue)
    candidates = [_candidate(entry, sessions) for entry in queue]
    for row in candidates:
        # Seated ahead of others who could sit: the floor says why (the queue log keeps it).
        row["passes_over"] = ahead_in_line(row["entry"], _in_list_order(whole_queue), set(sessions))
    first = candidates[0] if candidates else None
    # The next on the list is the panel's main action, unless a must-move player comes first.
    main = first if must_move is None else None
    chosen = next(
        (row for row in candidates if row["entry"].pk == entry_id and row["mode"] == CHECK_IN), None
    )
    if chosen is None and main is not None and main["mode"] == CHECK_IN:
        chosen = main
    check_in = None
    if chosen is not None:
        found = found_for_check_in(entry=chosen["entry"], query=query)
        check_in = {**chosen, "query": query.strip(), "found": found, "main": chosen is main}
    return {
        "must_move": must_move,
        "must_move_reason": must_move_reason,
        "candidates": candidates,
        "main": main,
        "seat_next": main is not None and main["mode"] == SEAT,
        "check_in": check_in,
        "others": [row for row in candidates if row is not main and row is not chosen],
    }


def found_for_check_in(*, entry: WaitingEntry, query: str) -> list[dict]:
    """The registered persons matching `query` (name words or card number) a phone joiner may be
    checked in as, each with the reason they cannot take this list's seat now, if any: seated at
    a table already, or on this game's list already with another entry. Three queries."""
    query = (query or "").strip()[:100]
    if not query:
        return []
    players = list(player_search(query=query, limit=FOUND_ROWS))
    sessions = _open_sessions(player.pk for player in players)
    listed = set(
        WaitingEntry.objects.filter(
            game_id=entry.game_id, status__in=WAITING_STATUSES, player__in=players
        ).values_list("player_id", flat=True)
    )
    rows = []
    for player in players:
        reason = ""
        if player.pk in sessions:
            reason = seated_reason(sessions[player.pk])
        elif player.pk in listed:
            reason = _("On this list already: seat them from their own line.")
        rows.append({"player": player, "reason": reason})
    return rows


def short_of_a_big_blind(session: PlayerSession, *, big_blind_cents: int) -> bool:
    """The dealer last counted less than one big blind in front of the player (CSH-5)."""
    return session.last_counted_cents is not None and session.last_counted_cents < big_blind_cents


def state_taps(session: PlayerSession, *, table: CashTable, new_game: bool = False) -> list[dict]:
    """The seat-state taps the player's state allows (CSH-6), each with the reason it is
    refused now: a tap that puts the player in play needs one big blind in chips (CSH-5). At a
    new game's first hand a new player is dealt in without posting, so no tap puts him in play."""
    short = short_of_a_big_blind(session, big_blind_cents=table.game.big_blind_cents)
    first_hand = new_game and session.state in FIRST_HAND_STATES
    taps = []
    for action, (states, target) in STATE_ACTIONS.items():
        if session.state not in states or (first_hand and target == SeatState.PLAYING):
            continue
        reason = ""
        if short and target == SeatState.PLAYING:
            reason = _("Less than one big blind (%s) in chips: a top-up at the cage comes first.") % (
                format_eur(table.game.big_blind_cents)
            )
        taps.append({"action": action, "reason": reason})
    return taps


def free_places(*, game_ids) -> dict[int, list[dict]]:
    """{game id: its open tables' free seats as [{table, seat}]}, in table and seat order. A seat
    a called player holds is not free, but stays free for that player (see `entry_places`).
    Three queries."""
    tables = list(
        CashTable.objects.filter(status=TableStatus.OPEN, game_id__in=list(game_ids))
        .select_related("game")
        .order_by("number")
    )
    taken = set(
        PlayerSession.objects.filter(table__in=tables, ended_at__isnull=True).values_list("table_id", "seat")
    )
    called = WaitingEntry.objects.filter(table__in=tables, status=WaitStatus.CALLED, seat__isnull=False)
    held = set(called.values_list("table_id", "seat"))
    places: dict[int, list[dict]] = defaultdict(list)
    for table in tables:
        for seat in range(1, table.seats + 1):
            if (table.pk, seat) not in taken and (table.pk, seat) not in held:
                places[table.game_id].append({"table": table, "seat": seat})
    return places


def waiting_page_offers(board: list[dict]) -> None:
    """Adds to each game of `waiting_board` what its list offers on the waiting-list page:
    `call_tables` (the open tables with a free seat the next waiting player may be called to,
    empty when nobody is waiting to be called), and per entry `places` (the free seats it may take,
    its own held seat first) or the `reason` it cannot take one now; a phone joiner without a card
    gets the `check_in_place` whose seat panel checks them in and seats them. Four queries (the entries'
    tables come with `waiting_board`)."""
    places = free_places(game_ids=[block["game"].pk for block in board])
    entries = [row["entry"] for block in board for row in block["entries"]]
    sessions = _open_sessions(entry.player_id for entry in entries)
    for block in board:
        game_places = places[block["game"].pk]
        waiting = any(row["entry"].status == WaitStatus.WAITING for row in block["entries"])
        tables = list({place["table"].pk: place["table"] for place in game_places}.values())
        block["call_tables"] = tables if waiting else []
        block["has_free_seat"] = bool(game_places)
        for row in block["entries"]:
            entry = row["entry"]
            own = []
            if entry.status == WaitStatus.CALLED and entry.seat and entry.table_id:
                own = [{"table": entry.table, "seat": entry.seat, "held": True}]
            row["places"], row["reason"], row["check_in_place"] = own + game_places, "", None
            if entry.player_id is None:
                # Checked in at the seat's panel, which finds or registers the person (WTL-1).
                row["check_in_place"] = row["places"][0] if row["places"] else None
                row["places"], row["reason"] = [], _("Check in first: a seat needs a registered player.")
            elif entry.player_id in sessions:
                row["places"], row["reason"] = [], seated_reason(sessions[entry.player_id])
            elif not row["places"]:
                row["reason"] = _("No free seat at a table of this game.")
            # Seated ahead of others who could sit: the floor says why (the queue log keeps it).
            row["passes_over"] = ahead_in_line(entry, [r["entry"] for r in block["entries"]], set(sessions))
