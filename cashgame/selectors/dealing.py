"""What the dealer needs at the deal, read the same way by the floor's dealer page, the dealer
tablet (devices/) and the hand log's service: who is dealt in at the next hand, whether the game
is new, and where the button goes.

A game is new until its first hand ends: when a table opens nobody owes a blind yet, so the
button is drawn (HND-2) and the blinds are posted in that hand. Every player seated with chips
and not sitting out is dealt in, including one who would otherwise wait for the button or owe
blinds; CSH-6 applies to the players who sit down after that (or after a voided first hand was
dealt again, the button staying where it was drawn).
"""

from cashgame.models import CashTable, Hand, HandStatus, PlayerSession, SeatState
from cashgame.seat_layout import FIRST_HAND_STATES, drawn_seats
from cashgame.selectors import table_seats

__all__ = ["FIRST_HAND_STATES", "dealable", "dealer_state", "next_button", "table_game_is_new"]

_UNREAD = object()


def dealable(session: PlayerSession | None, *, new_game: bool) -> bool:
    """Whether the player on a seat is dealt in at the next hand (CSH-5, CSH-6)."""
    if session is None:
        return False
    return session.state == SeatState.PLAYING or (new_game and session.state in FIRST_HAND_STATES)


def _before_opening(table: CashTable, hand: Hand) -> bool:
    """The hand was dealt before the table last opened: it belongs to an earlier game."""
    return table.opened_at is not None and hand.started_at < table.opened_at


def table_game_is_new(*, table: CashTable, last_finished=_UNREAD) -> bool:
    """True until a hand ends at the table after it opened. `last_finished` is the table's
    latest hand that ended or was voided (None: there is none), when the caller read it
    already; it answers without a query unless that hand is a void of this game."""
    if last_finished is not _UNREAD:
        if last_finished is None or _before_opening(table, last_finished):
            return True
        if last_finished.status == HandStatus.ENDED:
            return False
    ended = Hand.objects.filter(table=table, status=HandStatus.ENDED)
    if table.opened_at is not None:
        ended = ended.filter(started_at__gte=table.opened_at)
    return not ended.exists()


def next_button(seats: list[dict], last: Hand | None, *, draw: bool = False) -> int | None:
    """The dealer's suggestion for the button: the seat in play after the last hand's button;
    the same seat after a void (the hand is dealt again); none when it is to be drawn."""
    playing = [row["seat"] for row in seats if row["playing"]]
    if not playing or draw:
        return None
    if last is None or last.button_seat is None:
        return playing[0]
    if last.status == HandStatus.VOIDED and last.button_seat in playing:
        return last.button_seat
    return ([seat for seat in playing if seat > last.button_seat] or playing)[0]


def dealer_state(*, table: CashTable) -> dict:
    """What the dealer's pages draw: the hand in progress, the last hand ended or void, the
    seats (who is dealt in at a new hand, drawn where), whether the game is new and whether
    the button is still to be drawn (no hand dealt in this game yet). Two queries (the hands,
    the seats), a third only between a new game's voided hand and its deal again."""
    recent = list(Hand.objects.filter(table=table).order_by("-pk")[:2])
    hand = recent[0] if recent and recent[0].status == HandStatus.IN_PROGRESS else None
    last = next((h for h in recent if h.status != HandStatus.IN_PROGRESS), None)
    new_game = table_game_is_new(table=table, last_finished=last)
    draw = hand is None and (last is None or _before_opening(table, last))
    seats = drawn_seats(table_seats(table=table), seats=table.seats, hand=hand, new_game=new_game)
    return {
        "table": table,
        "hand": hand,
        "last_hand": last,
        "seats": seats,
        "playing_count": sum(1 for row in seats if row["playing"]),
        "new_game": new_game,
        "button_draw": draw,
        "next_button": next_button(seats, last, draw=draw),
    }
