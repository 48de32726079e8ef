"""Where each seat of a cash table is drawn, for the dealer's pages (the floor's dealer page and
the paired dealer tablet, devices/): plain values, no query."""

import math

from cashgame.models import Hand, SeatState

# Dealt in at a new game's first hand besides PLAYING: nobody owes a blind yet (CSH-6).
FIRST_HAND_STATES = frozenset({SeatState.WAITING_FOR_BUTTON, SeatState.OWES_BLINDS})

# The seats around the oval as the dealer sees them, sitting at the bottom: seat 1 on the
# dealer's left, clockwise up, across and down to the last seat on the dealer's right.
# DEALER_GAP degrees are left free at the bottom, where the dealer sits. The seats' centres lie
# on the ellipse that fills the seats' box: the drawing less a margin of half a seat (and the
# button's overhang) on each side, which static/css/tablet.css keeps, so no seat is clipped.
DEALER_GAP = 70
RADIUS_X, RADIUS_Y = 50, 50


def seat_position(seat: int, seats: int) -> tuple[str, str]:
    """(left, top) of a seat's centre, in per cent of the seats' box (0 to 100)."""
    # Screen angles run clockwise (y points down); 90 degrees is straight below the centre.
    step = (360 - DEALER_GAP) / seats
    angle = math.radians(90 + DEALER_GAP / 2 + (seat - 0.5) * step)
    return f"{50 + RADIUS_X * math.cos(angle):.1f}", f"{50 + RADIUS_Y * math.sin(angle):.1f}"


def drawn_seats(
    rows: list[dict], *, seats: int, hand: Hand | None = None, new_game: bool = False
) -> list[dict]:
    """cashgame.selectors.table_seats' rows, each with whether it is in play (dealt in at a new
    hand: playing, or at a new game's first hand also waiting for the button or owing blinds,
    as cashgame.selectors.dealing says), whether the hand in progress dealt it in, and where it
    is drawn."""
    dealable = {SeatState.PLAYING, *(FIRST_HAND_STATES if new_game else ())}
    dealt = set(hand.dealt_seats) if hand else set()
    drawn = []
    for row in rows:
        session = row["session"]
        left, top = seat_position(row["seat"], seats)
        drawn.append(
            {
                **row,
                "playing": session is not None and session.state in dealable,
                "dealt": row["seat"] in dealt,
                "left": left,
                "top": top,
            }
        )
    return drawn
