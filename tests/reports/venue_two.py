"""A second venue beside the known day's (VEN-1): "Casino Two" in Prague, whose gaming day starts
at 08:00, with a small day of its own built through the real services, every figure by hand.

Gaming day 2026-11-10 of Casino Two runs from 08:00 on the 10th to 08:00 on the 11th (Prague);
the known day's venue starts its day at 06:00, so what Casino Two does from 06:00 to 08:00 on the
10th is its 9th, not its 10th.

- The 9th (06:30-08:00 on the 10th): shift opened at 06:30 (float 1,000.00); table 1 (NLHE 1/2)
  opened at 06:40; X and Y buy in 100.00 each at 06:45; hand at 07:00, pot 40.00: rake 2.00,
  drop 1.00.
- The 10th: hand at 09:00, pot 100.00: rake 5.00 (capped), drop 1.00. Z (ID verified) buys in
  2,500.00 at 09:10 and cashes out 2,500.00 at 09:30 (AML: 5,000.00 cash, two transactions).
  X cashes out 120.00 and Y 71.00 at 09:30; table closed at 09:45.
  Tournament "Prague 100" (90.00 + 10.00, guarantee 500.00 unconditional): three entries at
  10:01-10:03 (fees 30.00, prize contributions 270.00), started at 11:00, registration closed
  at the end of level 1 (11:10): overlay 230.00.
  Drop box of table 1 counted 11:00: 3.50 against 3.00 in the hand log of 06:40-09:45 (+0.50).
  Shift closed at 23:00: expected 1,309.00, counted 1,308.00 (-1.00).
"""

import random
from datetime import date
from zoneinfo import ZoneInfo

from cardroom.roles import Role
from cardroom.venues import venue_activate
from cashgame.services.dropbox import dropbox_count_record
from cashgame.services.tables import table_close, table_create, table_open
from cashier.services import shift_close, shift_open
from tests.factories import PlayerFactory, cage_stock
from tests.reports import known_day
from tests.reports.known_day import KnownDay, key, nlhe
from tests.tournaments.factories import TournamentFactory
from tests.two_venues import roles_grant, venue_two
from tournaments.services.clock import clock_advance_due
from tournaments.services.payouts import entry_bust, payout_table_set, prize_pay
from tournaments.services.registration import entry_register, tournament_start

PRAGUE = ZoneInfo("Europe/Prague")
DAY = date(2026, 11, 10)
EVE = date(2026, 11, 9)


def at(hour: int, minute: int = 0, day: int = 10):
    """A moment in Prague, Casino Two's time zone."""
    return known_day.at(hour, minute, day, zone=PRAGUE)


def build(*, manager, floor, cashier) -> KnownDay:
    """Casino Two's day, its staff given their roles there too."""
    venue = venue_two(time_zone="Europe/Prague", gaming_day_start_hour=8)
    roles_grant(manager, {venue: [Role.MANAGER]})
    roles_grant(floor, {venue: [Role.FLOOR]})
    roles_grant(cashier, {venue: [Role.CASHIER]})
    two = KnownDay(venue=venue)
    with venue_activate(venue):
        cage_stock(cashier, now=at(6))
        shift = two.shift = shift_open(actor=cashier, opening_float_cents=100_000, now=at(6, 30))
        game = two.games["1/2"] = nlhe(
            manager=manager, small=100, big=200, min_buy_in=10_000, max_buy_in=300_000, now=at(6)
        )
        table = two.tables[1] = table_create(actor=manager, number=1, game=game, now=at(6))
        table_open(actor=floor, table=table, now=at(6, 40))
        common = {"table": table, "cashier": cashier, "floor": floor, "shift": shift}
        sessions = {}
        for seat, name, amount, when, extra in (
            (1, "X", 10_000, at(6, 45), {}),
            (2, "Y", 10_000, at(6, 45), {}),
            (3, "Z", 250_000, at(9, 10), {"id_verified_at": at(6)}),
        ):
            sessions[name] = known_day._seat(
                two, name=name, seat=seat, amount=amount, now=when, **common, **extra
            )
            if name == "Y":
                for start, pot in ((at(7), 4_000), (at(9), 10_000)):
                    known_day._hand(floor=floor, table=table, seats=[1, 2], pot=pot, start=start)
        for name, amount in (("X", 12_000), ("Y", 7_300), ("Z", 250_000)):
            known_day._out(cashier=cashier, shift=shift, session=sessions[name], amount=amount, now=at(9, 30))
        table_close(actor=floor, table=table, now=at(9, 45))
        dropbox_count_record(
            actor=cashier,
            table=table,
            period_start=at(6, 40),
            period_end=at(9, 45),
            counted_cents=750,
            now=at(11),
        )

        levels = [(25, 50, 600), (50, 100, 600), (100, 200, 3600)]
        tournament = two.tournaments["Prague 100"] = TournamentFactory(
            name="Prague 100",
            start_at=at(11),
            prize_cents=9_000,
            fee_cents=1_000,
            min_players=2,
            late_registration_level=1,
            guarantee_deadline_level=1,
            guarantee_mode="unconditional",
            guarantee_cents=50_000,
            levels=levels,
        )
        payout_table_set(actor=manager, tournament=tournament, percentages=[10_000], now=at(10))
        entries = [
            entry_register(
                actor=cashier,
                tournament=tournament,
                player=PlayerFactory(last_name=f"R{n}"),
                shift=shift,
                idempotency_key=key(),
                now=at(10, n),
                rng=random.Random(n),
            )
            for n in range(1, 4)
        ]
        tournament_start(actor=floor, tournament=tournament, now=at(11), rng=random.Random(3))
        clock_advance_due(tournament_id=tournament.pk, now=at(11, 10))
        for minute, entry in enumerate(entries[:2]):
            entry_bust(
                actor=floor,
                tournament=tournament,
                busted=[(entry.pk, 1_000 + minute)],
                now=at(11, 20 + minute),
            )
        winner = tournament.entries.get(finish_place=1)
        prize_pay(actor=cashier, entry=winner, shift=shift, idempotency_key=key(), now=at(11, 30))
        shift_close(actor=cashier, shift=shift, counted_cents=80_600, now=at(23))
    return two
