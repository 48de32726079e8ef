"""One gaming day of a small room built through the real services, every figure chosen by hand.

Gaming day 2026-11-10 runs from 06:00 on the 10th to 06:00 on the 11th, Europe/Bratislava.

Cash games (NLHE 1/2: jackpot stakes; NLHE 2/5):
- Table 1, NLHE 1/2, open 12:00-23:30 (690 min). A, B, C, D buy in 100.00 each. Hands:
  h1 flop, pot 40.00: rake 2.00 (5 %), drop 1.00; h2 no flop, pot 3.00: nothing (RAK-2);
  h3 flop, pot 150.00: rake capped 5.00, drop 1.00; h4 misdeal: void (RAK-4);
  h5 flop, pot 15.00: rake 0.75 rounded down to 0.50, no drop under 20.00 (JKP-2).
  D cashes out 50.00 at 14:00; A 200.00, B 100.50, C 40.00 at 23:00.
  Drop box 12:00-23:30 counted 7.00 against 7.50 in the hand log: -0.50 (RAK-5).
- Table 2, NLHE 2/5, open 20:00 until 07:00 on the 11th (600 min in the day). E (ID verified)
  buys in 2,000.00, F 200.00. h1 flop, pot 300.00: rake 5.00 (capped). h2 from 05:55 to 06:02
  on the 11th: it belongs to the next gaming day. Drop box 20:00-06:00 counted 5.00: no variance.
- Table 3 runs NLHE 1/2 13:00-15:00 (G, H, 100.00 each; one hand, pot 60.00, 2 players: rake
  3.00, no drop, JKP-1), closes, and reopens for NLHE 2/5 16:00-18:00 (G, H, 200.00 each; one
  hand, pot 100.00: rake 5.00). No drop-box count.
Tournaments:
- T1 "Daily 50": 45.00 + 5.00, guarantee 1,000.00 unconditional (TRN-4), one re-entry.
  10 players, P1 and P2 re-enter: 12 entries, 540.00 collected, 60.00 fees, overlay 460.00.
  Payouts 50/30/20 %: 500.00 and 300.00 paid in the day, 200.00 paid on the 11th.
- T2 "Turbo 20": 18.00 + 2.00, 3 entries, cancelled (TRN-2): 60.00 owed back, 20.00 paid.
Jackpot: 1.50 paid to A at 23:50 from the fund (2.00 dropped).
Cashier: one shift 10:00 - 05:00 (float 2,000.00), counted 0.50 short; the 11th's payments by
cashier2 in a shift opened at 06:30.
"""

import itertools
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from cardroom.models import Venue
from cashgame.models import GameType
from cashgame.services.dropbox import dropbox_count_record
from cashgame.services.games import game_create
from cashgame.services.hands import hand_end, hand_flop, hand_start, hand_void
from cashgame.services.sessions import session_buy_in, session_cash_out, session_state_change
from cashgame.services.tables import table_close, table_create, table_open
from cashier.services import jackpot_payout, shift_close, shift_open
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.factories import TournamentFactory
from tournaments.services.clock import clock_advance_due
from tournaments.services.payouts import entry_bust, payout_table_set, prize_pay
from tournaments.services.registration import entry_register, refund_pay, tournament_start
from tournaments.services.tournaments import tournament_cancel

BRATISLAVA = ZoneInfo("Europe/Bratislava")
DAY = date(2026, 11, 10)
NEXT = date(2026, 11, 11)
_keys = itertools.count(1)


def key() -> str:
    return f"known-day-{next(_keys):06d}"


def at(hour: int, minute: int = 0, day: int = 10, zone: ZoneInfo = BRATISLAVA) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=zone)


@dataclass
class KnownDay:
    """A day built through the services (this one's or Casino Two's: venue_two.py)."""

    venue: Venue | None = None  # None: the installation's first venue
    tables: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    tournaments: dict = field(default_factory=dict)
    shift: object = None


def nlhe(*, manager, small: int, big: int, min_buy_in: int, max_buy_in: int, now: datetime):
    """A No-Limit Hold'em game made by the manager, named by its blinds in euros."""
    return game_create(
        actor=manager,
        name=f"NLHE {small // 100}/{big // 100}",
        game_type=GameType.NLHE,
        small_blind_cents=small,
        big_blind_cents=big,
        min_buy_in_cents=min_buy_in,
        max_buy_in_cents=max_buy_in,
        now=now,
    )


def _seat(room, *, table, cashier, floor, shift, name, seat, amount, now, **player):
    person = room.players.get(name) or PlayerFactory(last_name=name, **player)
    room.players[name] = person
    session = session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=person,
        seat=seat,
        amount_cents=amount,
        idempotency_key=key(),
        now=now,
    )
    return session_state_change(actor=floor, session=session, action="posted", now=now)


def _hand(*, floor, table, seats, pot, flop=True, start, end=None):
    hand = hand_start(actor=floor, table=table, seats=seats, now=start)
    if flop:
        hand = hand_flop(actor=floor, hand=hand, now=start + timedelta(minutes=1))
    return hand_end(actor=floor, hand=hand, pot_cents=pot, now=end or start + timedelta(minutes=3))


def _out(*, cashier, shift, session, amount, now):
    return session_cash_out(
        actor=cashier, shift=shift, session=session, amount_cents=amount, idempotency_key=key(), now=now
    )


def build(*, manager, floor, cashier, cashier2) -> KnownDay:
    room = KnownDay()
    cage_stock(cashier, now=at(9))  # the cage's chips, before the first buy-in (CHP-2)
    shift = room.shift = shift_open(actor=cashier, opening_float_cents=200_000, now=at(10))
    g12 = room.games["1/2"] = nlhe(
        manager=manager, small=100, big=200, min_buy_in=10_000, max_buy_in=30_000, now=at(9)
    )
    g25 = room.games["2/5"] = nlhe(
        manager=manager, small=200, big=500, min_buy_in=20_000, max_buy_in=250_000, now=at(9)
    )
    t1, t2, t3 = (
        table_create(actor=manager, number=number, game=game, now=at(9))
        for number, game in ((1, g12), (2, g25), (3, g12))
    )
    room.tables = {1: t1, 2: t2, 3: t3}
    common = {"cashier": cashier, "floor": floor, "shift": shift}

    # Table 1: NLHE 1/2, 12:00-23:30.
    table_open(actor=floor, table=t1, now=at(12))
    s1 = {
        name: _seat(room, table=t1, name=name, seat=seat, amount=10_000, now=at(12, 5), **common)
        for seat, name in enumerate("ABCD", start=1)
    }
    _hand(floor=floor, table=t1, seats=[1, 2, 3, 4], pot=4_000, start=at(12, 10))
    _hand(floor=floor, table=t1, seats=[1, 2, 3, 4], pot=300, flop=False, start=at(12, 20))
    _hand(floor=floor, table=t1, seats=[1, 2, 3, 4], pot=15_000, start=at(12, 30))
    void = hand_start(actor=floor, table=t1, seats=[1, 2, 3, 4], now=at(12, 40))
    hand_void(actor=floor, hand=void, reason="misdeal", now=at(12, 41))
    _hand(floor=floor, table=t1, seats=[1, 2, 3, 4], pot=1_500, start=at(12, 50))
    _out(cashier=cashier, shift=shift, session=s1["D"], amount=5_000, now=at(14))
    for name, amount in (("A", 20_000), ("B", 10_050), ("C", 4_000)):
        _out(cashier=cashier, shift=shift, session=s1[name], amount=amount, now=at(23))
    table_close(actor=floor, table=t1, now=at(23, 30))
    dropbox_count_record(
        actor=cashier, table=t1, period_start=at(12), period_end=at(23, 30), counted_cents=700, now=at(23, 45)
    )
    jackpot_payout(
        actor=cashier,
        shift=shift,
        player=room.players["A"],
        amount_cents=150,
        idempotency_key=key(),
        now=at(23, 50),
    )

    # Table 3: NLHE 1/2 13:00-15:00, then NLHE 2/5 16:00-18:00.
    table_open(actor=floor, table=t3, now=at(13))
    s3 = {
        name: _seat(room, table=t3, name=name, seat=seat, amount=10_000, now=at(13, 5), **common)
        for seat, name in ((1, "G"), (2, "H"))
    }
    _hand(floor=floor, table=t3, seats=[1, 2], pot=6_000, start=at(13, 30))
    _out(cashier=cashier, shift=shift, session=s3["G"], amount=15_000, now=at(14, 50))
    _out(cashier=cashier, shift=shift, session=s3["H"], amount=4_700, now=at(14, 50))
    table_close(actor=floor, table=t3, now=at(15))
    table_open(actor=floor, table=t3, game=g25, now=at(16))
    s3 = {
        name: _seat(room, table=t3, name=name, seat=seat, amount=20_000, now=at(16, 5), **common)
        for seat, name in ((1, "G"), (2, "H"))
    }
    _hand(floor=floor, table=t3, seats=[1, 2], pot=10_000, start=at(16, 30))
    _out(cashier=cashier, shift=shift, session=s3["G"], amount=0, now=at(17, 50))
    _out(cashier=cashier, shift=shift, session=s3["H"], amount=39_500, now=at(17, 50))
    table_close(actor=floor, table=t3, now=at(18))

    # Table 2: NLHE 2/5 from 20:00 into the next gaming day.
    table_open(actor=floor, table=t2, now=at(20))
    s2 = {
        "E": _seat(
            room, table=t2, name="E", seat=1, amount=200_000, now=at(20, 5), id_verified_at=at(9), **common
        ),
        "F": _seat(room, table=t2, name="F", seat=2, amount=20_000, now=at(20, 5), **common),
    }
    _hand(floor=floor, table=t2, seats=[1, 2], pot=30_000, start=at(20, 30))

    # Tournaments.
    tournament_day(room, manager=manager, floor=floor, cashier=cashier, shift=shift)

    # After midnight, still gaming day 10 until 06:00.
    shift_close(actor=cashier, shift=shift, counted_cents=405_550, now=at(5, day=11))
    # The next gaming day: must not count in the 10th.
    _hand(floor=floor, table=t2, seats=[1, 2], pot=1_000, start=at(5, 55, day=11), end=at(6, 2, day=11))
    shift2 = shift_open(actor=cashier2, opening_float_cents=300_000, now=at(6, 30, day=11))
    dropbox_count_record(
        actor=cashier2,
        table=t2,
        period_start=at(20),
        period_end=at(6, day=11),
        counted_cents=500,
        now=at(6, 10, day=11),
    )
    _out(cashier=cashier2, shift=shift2, session=s2["E"], amount=210_000, now=at(6, 30, day=11))
    _out(cashier=cashier2, shift=shift2, session=s2["F"], amount=9_450, now=at(6, 30, day=11))
    table_close(actor=floor, table=t2, now=at(7, day=11))
    third = room.tournaments["T1"].entries.get(finish_place=3)
    prize_pay(actor=cashier2, entry=third, shift=shift2, idempotency_key=key(), now=at(7, 30, day=11))
    room.shift2 = shift2
    return room


def tournament_day(room, *, manager, floor, cashier, shift) -> None:
    levels = [(25, 50, 600), (50, 100, 600), (75, 150, 600), ("break", 300, "Colour up"), (100, 200, 3600)]
    t1 = room.tournaments["T1"] = TournamentFactory(
        name="Daily 50",
        start_at=at(19),
        prize_cents=4_500,
        fee_cents=500,
        min_players=2,
        late_registration_level=3,
        max_reentries=1,
        guarantee_mode="unconditional",
        guarantee_cents=100_000,
        levels=levels,
    )
    payout_table_set(actor=manager, tournament=t1, percentages=[5_000, 3_000, 2_000], now=at(18))
    entries = []
    for n in range(1, 11):
        player = room.players[f"P{n}"] = PlayerFactory(last_name=f"P{n}")
        entries.append(
            entry_register(
                actor=cashier,
                tournament=t1,
                player=player,
                shift=shift,
                idempotency_key=key(),
                now=at(18, 30 + n),
                rng=random.Random(n),
            )
        )
    tournament_start(actor=floor, tournament=t1, now=at(19), rng=random.Random(3))
    entry_bust(actor=floor, tournament=t1, busted=[(entries[0].pk, 20_000)], now=at(19, 5))
    entry_bust(actor=floor, tournament=t1, busted=[(entries[1].pk, 20_000)], now=at(19, 6))
    for n in (1, 2):
        entries.append(
            entry_register(
                actor=cashier,
                tournament=t1,
                player=room.players[f"P{n}"],
                shift=shift,
                idempotency_key=key(),
                now=at(19, 10 + n),
                rng=random.Random(n),
            )
        )
    # The end of level 3: registration closes and the guarantee is decided (TRN-3, TRN-4).
    clock_advance_due(tournament_id=t1.pk, now=at(19, 30))
    alive = list(t1.entries.filter(status="active").order_by("number"))
    for minute, entry in enumerate(alive[:-1]):
        entry_bust(actor=floor, tournament=t1, busted=[(entry.pk, 1_000 + minute)], now=at(20, minute))
    t1.refresh_from_db()
    for place in (1, 2):
        entry = t1.entries.get(finish_place=place)
        prize_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=at(22, 10 + place))

    t2 = room.tournaments["T2"] = TournamentFactory(
        name="Turbo 20", start_at=at(21), prize_cents=1_800, fee_cents=200, min_players=2, levels=levels
    )
    turbo = [
        entry_register(
            actor=cashier,
            tournament=t2,
            player=PlayerFactory(last_name=f"Q{n}"),
            shift=shift,
            idempotency_key=key(),
            now=at(20, 40 + n),
            rng=random.Random(n),
        )
        for n in range(3)
    ]
    tournament_cancel(actor=manager, tournament=t2, now=at(20, 50))
    turbo[0].refresh_from_db()
    refund_pay(actor=cashier, entry=turbo[0], shift=shift, idempotency_key=key(), now=at(21))
