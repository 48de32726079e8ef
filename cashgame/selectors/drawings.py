"""The cash tables as the room's screens draw them: each open table with its game, the hand in
progress, the button, the players called to it, and every seat with its player, chips and state
(the floor view, the cash table page; `screens.floor` adds the tournaments' tables)."""

from collections import defaultdict

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import pgettext_lazy

from cashgame.models import (
    CashTable,
    Hand,
    HandStatus,
    PlayerSession,
    SeatState,
    TableStatus,
    WaitingEntry,
    WaitStatus,
)
from cashgame.seat_layout import FIRST_HAND_STATES
from cashgame.selectors import entry_public_name, public_name
from players.selectors import PUBLIC_NAME_FIELDS

PLAYER_NAME_FIELDS = tuple(f"player__{field}" for field in PUBLIC_NAME_FIELDS)

# The seats as the floor draws them: a seat's colour is its state, and a word says it too for
# every state but playing (colour alone is not enough); an empty seat has none.
EMPTY_SEAT = "empty"
# The words fit an 84 px seat, in every language: their own context so they can be short.
SEAT_SHORT_LABELS = {
    SeatState.AWAITING_BUY_IN: pgettext_lazy("seat", "Buys in"),
    SeatState.WAITING_FOR_BUTTON: pgettext_lazy("seat", "New"),
    SeatState.SITTING_OUT: pgettext_lazy("seat", "Sitting out"),
    SeatState.OWES_BLINDS: pgettext_lazy("seat", "Missed blinds"),
}


def _seat_row(
    number: int,
    session: PlayerSession | None,
    *,
    dealt: set[int],
    button: int | None,
    words: dict,
    new_game: bool = False,
) -> dict:
    row = {"number": number, "button": number == button, "dealt": number in dealt, "session": session}
    if session is None:
        return {**row, "state": EMPTY_SEAT, "label": "", "short": "", "name": "", "stack_cents": None}
    # At a new game's first hand nobody owes a blind (CSH-6): a new player is dealt in, so he is
    # drawn as playing, not as one who waits for the button.
    state = SeatState.PLAYING if new_game and session.state in FIRST_HAND_STATES else session.state
    return {
        **row,
        "state": state,
        "label": words["labels"][state],
        "short": words["short"].get(state, ""),
        "name": words["names"][session.player_id],
        "stack_cents": session.last_counted_cents,
    }


def closed_table_list() -> list[CashTable]:
    """The closed tables by number, for the floor view's line of them (their numbers alone)."""
    return list(CashTable.objects.filter(status=TableStatus.CLOSED).order_by("number").only("number"))


def cash_table_drawings(*, tables: QuerySet[CashTable] | None = None) -> list[dict]:
    """The open cash tables (or `tables`) as the floor draws them: per table its game, whether a
    hand is in progress and who is dealt in, the button (the hand's, else the last hand's), the
    players called to it from the waiting list, and seat 1..N with its player, chips last
    counted and seat state. Four queries, whatever the number of tables and players."""
    last_button = Hand.objects.filter(table=OuterRef("pk")).order_by("-pk").values("button_seat")[:1]
    # A game is new until a hand ends after the table opened (cashgame.selectors.dealing).
    hand_ended = Hand.objects.filter(table=OuterRef("pk"), status=HandStatus.ENDED).filter(
        Q(started_at__gte=OuterRef("opened_at")) | Q(table__opened_at__isnull=True)
    )
    if tables is None:
        tables = CashTable.objects.filter(status=TableStatus.OPEN)
    tables = list(
        tables.select_related("game")
        .annotate(last_button=Subquery(last_button), game_played=Exists(hand_ended))
        .order_by("number")
    )
    ids = [table.pk for table in tables]
    hands = {
        hand.table_id: hand
        for hand in Hand.objects.filter(table_id__in=ids, status=HandStatus.IN_PROGRESS).only(
            "table_id", "number", "dealt_in", "button_seat"
        )
    }
    sessions: dict[int, dict[int, PlayerSession]] = defaultdict(dict)
    # Only what a drawn seat shows: the floor view draws every seat of the room each half second,
    # and the rest of a session and its player (a dozen dates among them) is most of a row's cost.
    seated = (
        PlayerSession.objects.filter(table_id__in=ids, ended_at__isnull=True)
        .select_related("player")
        .only("table_id", "seat", "state", "last_counted_cents", "player_id", *PLAYER_NAME_FIELDS)
    )
    for session in seated:
        sessions[session.table_id][session.seat] = session
    called = defaultdict(list)
    for entry in (
        WaitingEntry.objects.filter(table_id__in=ids, status=WaitStatus.CALLED)
        .select_related("player")
        .order_by("called_at", "pk")
    ):
        called[entry.table_id].append(entry)
    # Translated once per drawing, not once a seat (the floor view draws every seat of the room).
    words = {
        "labels": {state: str(label) for state, label in SeatState.choices},
        "short": {state: str(label) for state, label in SEAT_SHORT_LABELS.items()},
        "names": {
            session.player_id: public_name(session.player)
            for seats in sessions.values()
            for session in seats.values()
        },
    }
    drawings = []
    for table in tables:
        hand = hands.get(table.pk)
        dealt = set(hand.dealt_seats) if hand else set()
        button = hand.button_seat if hand and hand.button_seat else table.last_button
        seats = [
            _seat_row(
                number,
                sessions[table.pk].get(number),
                dealt=dealt,
                button=button,
                words=words,
                new_game=not table.game_played,
            )
            for number in range(1, table.seats + 1)
        ]
        drawings.append(
            {
                "kind": "cash",
                "table": table,
                "number": table.number,
                "hand": hand,
                "button": button,
                "called": [{"entry": entry, "name": entry_public_name(entry)} for entry in called[table.pk]],
                "seats": seats,
                "size": table.seats,
                "seated": sum(1 for seat in seats if seat["session"] is not None),
            }
        )
    return drawings
