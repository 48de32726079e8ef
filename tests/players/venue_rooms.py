"""Two venues' cash rooms for the tests of the operator's player register (VEN-1): each with
its cash game, open table, cashier's shift with chips in the cage; moments from T0 and keys."""

import itertools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from cardroom.venues import venue_activate
from cashgame.services.sessions import session_buy_in, session_cash_out
from cashier.services import shift_open
from tests.cashgame.conftest import make_game, make_table
from tests.factories import cage_stock
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register

BRATISLAVA = ZoneInfo("Europe/Bratislava")
T0 = datetime(2026, 11, 10, 18, 0, tzinfo=BRATISLAVA)
_keys = itertools.count(1)


def key() -> str:
    return f"ven-register-{next(_keys):06d}"


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


class Room:
    """One venue's cash game, open table and cashier's shift with chips in the cage."""

    def __init__(self, venue, *, cashier, max_buy_in: int = 300_000):
        self.venue = venue
        self.cashier = cashier
        with venue_activate(venue):
            self.game = make_game(max_buy_in=max_buy_in)
            self.table = make_table(self.game, 1)
            self.shift = shift_open(actor=cashier, opening_float_cents=500_000, now=at(-60))
            cage_stock(cashier, now=at(-60))

    def buy_in(self, player, cents: int, *, seat: int, when: datetime):
        with venue_activate(self.venue):
            return session_buy_in(
                actor=self.cashier,
                shift=self.shift,
                table=self.table,
                player=player,
                seat=seat,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )

    def register(self, player, cents: int, *, when: datetime):
        """A tournament's buy-in of `cents` (prize pool and fee) at this venue's cage."""
        with venue_activate(self.venue):
            tournament = TournamentFactory(
                start_at=when + timedelta(hours=1), prize_cents=cents - 1_000, fee_cents=1_000
            )
            return entry_register(
                actor=self.cashier,
                tournament=tournament,
                player=player,
                shift=self.shift,
                idempotency_key=key(),
                now=when,
            )

    def cash_out(self, session, cents: int, *, when: datetime):
        with venue_activate(self.venue):
            return session_cash_out(
                actor=self.cashier,
                shift=self.shift,
                session=session,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )
