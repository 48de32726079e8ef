"""What the query-count pins (tests/*/test_*_queries.py) share: caches held steady, and a room
with history, made through the real services, to show a busy path's count does not grow with it.

The pins are exact (`django_assert_num_queries`): one query more or fewer on a busy path is a
change someone should look at, and the same exact number before and after the history is the
proof that the path does not read the history row by row."""

import itertools

from cashgame.models import CashTable
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.sessions import session_buy_in, session_cash_out, session_state_change
from cashier.models import Shift
from tests.cashgame.conftest import at
from tests.factories import PlayerFactory

_keys = itertools.count(1)


def hold_caches(monkeypatch) -> None:
    """The venue row is kept for VENUE_CACHE_SECONDS: a test slower than that (making history on
    a loaded machine) would read it again and count one query more by the clock, not the code."""
    monkeypatch.setattr("cardroom.venues.VENUE_CACHE_SECONDS", 3600.0)


def cash_history(*, cashier, floor, shift: Shift, table: CashTable, seats: list[int], rounds: int) -> None:
    """`rounds` times, a player buys in at each of `seats` and cashes out: two cashier
    transactions, two postings and a session per player and round."""
    for round_number in range(rounds):
        minute = 100 + round_number * 3
        sessions = [
            session_buy_in(
                actor=cashier,
                shift=shift,
                table=table,
                player=PlayerFactory(id_verified_at=at(0)),
                seat=seat,
                amount_cents=table.game.min_buy_in_cents,
                idempotency_key=f"history-{next(_keys):06d}",
                now=at(minute),
            )
            for seat in seats
        ]
        for session in sessions:
            session_cash_out(
                actor=cashier,
                shift=shift,
                session=session,
                amount_cents=table.game.min_buy_in_cents,
                idempotency_key=f"history-{next(_keys):06d}",
                now=at(minute + 1),
            )


def hand_history(*, floor, cashier, shift: Shift, table: CashTable, seats: list[int], hands: int) -> None:
    """`hands` raked hands at `table` among players seated at `seats` for it (they stay)."""
    for seat in seats:
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at=at(0)),
            seat=seat,
            amount_cents=table.game.max_buy_in_cents or table.game.min_buy_in_cents,
            idempotency_key=f"history-{next(_keys):06d}",
            now=at(50),
        )
        session_state_change(actor=floor, session=session, action="posted", now=at(50))
    for number in range(hands):
        minute = 200 + number
        hand = hand_start(actor=floor, table=table, seats=seats, now=at(minute))
        hand_flop(actor=floor, hand=hand, now=at(minute))
        hand_end(actor=floor, hand=hand, pot_cents=2_000, now=at(minute + 0.5))
