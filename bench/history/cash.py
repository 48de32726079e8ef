"""Cash tables of one gaming day: openings and closings (audited), sessions with buy-ins, top-ups
and cash-outs through the cage, the hand log with the rake and jackpot drop posted per hand as
cashgame.services.hands does (RAK-1..RAK-4, JKP-1, JKP-2), bad-beat jackpots (JKP-3) and the
drop-box count of each opening (RAK-5).

Chips are followed player by player: every pot is taken from the stacks of the players in it and
given, less the rake and the drop, to its winner, so a cash-out is what the player holds and the
table's chips in play return to zero when it closes.
"""

import json
from dataclasses import dataclass

from bench.history.jackpot import bad_beat_claim
from bench.history.writer import iso
from cashier.models import AccountKind, PaymentMethod
from poker.rake import jackpot_drop_for_hand, rake_for_pot

VOID_SHARE = 0.003
NO_FLOP_SHARE = 0.24
JACKPOT_HIT = 1 / 45_000  # per eligible hand that saw a flop


@dataclass
class GamePlan:
    id: int
    name: str
    small: int
    big: int
    min_buy_in: int
    max_buy_in: int
    rate: int
    cap: int
    rounding: int
    jackpot_small: int
    jackpot_big: int
    jackpot_players: int
    jackpot_drop: int
    jackpot_threshold: int
    pot_bb: float  # median pot after a flop, in big blinds
    seconds: int  # average seconds per hand


class Session:
    __slots__ = ("buy_in", "id", "leave", "player", "seat", "stack", "start", "top_up")

    def __init__(self, sid, player, seat, start, leave, stack):
        self.id, self.player, self.seat, self.start, self.leave = sid, player, seat, start, leave
        self.stack = self.buy_in = stack
        self.top_up = 0


def table_day(
    room, *, table: dict, periods: list[tuple[GamePlan, int, int]], dealer: tuple[int, str]
) -> None:
    """One table's day: each period is (game, opened, closed) in epoch seconds."""
    for game, opened, closed in periods:
        _period(room, table=table, game=game, opened=opened, closed=closed, dealer=dealer)


def _snapshot(table: dict, game: GamePlan, status: str, opened: int, closed: int | None) -> dict:
    return {
        "number": table["number"],
        "game": game.id,
        "seats": 9,
        "status": status,
        "opened_at": iso(opened),
        "closed_at": iso(closed),
    }


def _period(room, *, table: dict, game: GamePlan, opened: int, closed: int, dealer) -> None:
    rng, w, s, ids = room.rng, room.w, room.s, room.ids
    floor = room.staff["floor"][table["number"] % len(room.staff["floor"])]
    table_id, number = table["id"], table["number"]
    chips = room.accounts[("chips", table_id)]
    rake_account, jackpot_account = (
        room.accounts[AccountKind.RAKE_REVENUE],
        room.accounts[AccountKind.JACKPOT_FUND],
    )
    repr_ = f"Table {number}"
    room.audit(
        opened,
        floor,
        "cashgame.table_open",
        "cashgame.cashtable",
        table_id,
        repr_,
        _snapshot(table, game, "open", opened, None),
    )
    seats: list[Session | None] = [None] * 10
    next_arrival = [closed] * 10
    for seat in rng.sample(range(1, 10), rng.randint(5, 9)):
        next_arrival[seat] = opened + rng.randint(0, 1_200)
    for seat in range(1, 10):
        if next_arrival[seat] == closed:
            next_arrival[seat] = opened + rng.randint(900, 4 * 3600)
    jackpot_stakes = (game.small, game.big) == (game.jackpot_small, game.jackpot_big)
    hand_spec, chip = s["hand"], game.small
    dealt_json, dealt_key = "[]", None
    button = 0
    period_rake = raked_hands = 0
    t = opened + 300

    def sit(seat: int, now: int) -> None:
        leave = now + int(min(12 * 3600, max(1_200, rng.expovariate(1 / (3 * 3600)))))
        player = room.player_pick(now, leave)
        if player is None:
            next_arrival[seat] = now + 900
            return
        amount = game.min_buy_in + rng.choice((0, 0, 0, 1, 2, 3)) * (game.max_buy_in - game.min_buy_in) // 3
        amount -= amount % 1_000  # whole 10.00 EUR
        method = PaymentMethod.CARD if rng.random() < 0.12 else PaymentMethod.CASH
        sid = ids("session")
        session = Session(sid, player, seat, now, leave, amount)
        tid = room.transact(
            now,
            "cash_buy_in",
            player=player,
            amount=amount,
            method=method,
            reference=f"table:{table_id}",
            lines_for=lambda money: [(money, amount), (chips, -amount)],
        )
        w.add(s["event"], (ids("event"), sid, "buy_in", now, room.shift_at(now).cashier, amount, None, tid))
        seats[seat] = session

    def leave(session: Session, now: int) -> None:
        amount = session.stack
        tid = None
        if amount:
            tid = room.transact(
                now,
                "cash_out",
                player=session.player,
                amount=amount,
                reference=f"table:{table_id}",
                lines_for=lambda money: [(chips, amount), (money, -amount)],
            )
        w.add(
            s["event"],
            (ids("event"), session.id, "cash_out", now, room.shift_at(now).cashier, amount, None, tid),
        )
        w.add(
            s["session"],
            (
                session.id,
                table_id,
                session.seat,
                session.player,
                "playing",
                session.start,
                now,
                session.buy_in,
                session.top_up,
                amount,
                amount,
            ),
        )
        room.busy_until[session.player] = now
        seats[session.seat] = None
        next_arrival[session.seat] = now + rng.randint(120, 1_800)

    while t < closed - 240:
        for seat in range(1, 10):
            session = seats[seat]
            if session is None:
                if next_arrival[seat] <= t:
                    sit(seat, t)
            elif session.leave <= t or session.stack == 0:
                if session.stack == 0 and session.leave > t and rng.random() < 0.45:
                    top = game.min_buy_in
                    tid = room.transact(
                        t,
                        "top_up",
                        player=session.player,
                        amount=top,
                        reference=f"table:{table_id}",
                        lines_for=lambda money, top=top: [(money, top), (chips, -top)],
                    )
                    w.add(
                        s["event"],
                        (ids("event"), session.id, "top_up", t, room.shift_at(t).cashier, top, 0, tid),
                    )
                    session.stack, session.top_up = top, session.top_up + top
                else:
                    leave(session, t)
        dealt = [seat for seat in range(1, 10) if seats[seat] is not None and seats[seat].stack > 0]
        if len(dealt) < 2:
            t += 180
            continue
        key = tuple((seat, seats[seat].player) for seat in dealt)
        if key != dealt_key:
            dealt_key, dealt_json = key, json.dumps([list(pair) for pair in key])
        later = [seat for seat in dealt if seat > button]
        button = later[0] if later else dealt[0]
        room.hand_numbers[table_id] += 1
        hand_id = ids("hand")
        duration = int(game.seconds * (0.5 + rng.random()))
        end = t + duration
        roll = rng.random()
        if roll < VOID_SHARE:
            w.add(
                hand_spec,
                (
                    hand_id,
                    table_id,
                    room.hand_numbers[table_id],
                    "voided",
                    dealt_json,
                    len(dealt),
                    button,
                    game.small,
                    game.big,
                    False,
                    None,
                    0,
                    0,
                    "misdeal" if roll < VOID_SHARE * 0.9 else "duplicate_card",
                    None,
                    t,
                    None,
                    t + 40,
                    dealer[0],
                    dealer[0],
                ),
            )
            room.audit(
                t + 40,
                dealer,
                "cashgame.hand_void",
                "cashgame.hand",
                hand_id,
                f"Table {number} #{room.hand_numbers[table_id]}",
                {"reason": "misdeal", "rule": "FLR-1"},
            )
            t += 60
            continue
        flop = roll >= VOID_SHARE + NO_FLOP_SHARE
        if flop:
            target = int(game.big * game.pot_bb * rng.lognormvariate(0, 0.9))
            players_in = rng.randint(2, min(4, len(dealt)))
        else:
            target = game.big * rng.choice((1, 2, 2, 3, 4, 6))
            players_in = 2
        in_hand = rng.sample(dealt, players_in)
        share = max(chip, target // players_in // chip * chip)
        pot = 0
        for seat in in_hand:
            paid = min(seats[seat].stack, share)
            seats[seat].stack -= paid
            pot += paid
        rake = rake_for_pot(
            pot_cents=pot,
            rate_bp=game.rate,
            cap_cents=game.cap,
            rounding_cents=game.rounding,
            saw_flop=flop,
            voided=False,
        )
        drop = 0
        if flop and jackpot_stakes:
            drop = jackpot_drop_for_hand(
                pot_cents=pot,
                small_blind_cents=game.small,
                big_blind_cents=game.big,
                players_dealt=len(dealt),
                saw_flop=True,
                voided=False,
                eligible_sb_cents=game.jackpot_small,
                eligible_bb_cents=game.jackpot_big,
                min_players=game.jackpot_players,
                drop_cents=game.jackpot_drop,
                threshold_cents=game.jackpot_threshold,
            )
            drop = min(drop, pot - rake)
        winner = rng.choice(in_hand)
        seats[winner].stack += pot - rake - drop
        posting = None
        if rake or drop:
            posting = room.post(
                end,
                dealer[0],
                f"Rake and jackpot drop, table {number} hand {room.hand_numbers[table_id]}",
                [(chips, rake + drop), (rake_account, -rake), (jackpot_account, -drop)],
            )
            room.jackpot += drop
        if rake:
            period_rake += rake
            raked_hands += 1
        w.add(
            hand_spec,
            (
                hand_id,
                table_id,
                room.hand_numbers[table_id],
                "ended",
                dealt_json,
                len(dealt),
                button,
                game.small,
                game.big,
                flop,
                pot,
                rake,
                drop,
                "",
                posting,
                t,
                t + 30 if flop else None,
                end,
                dealer[0],
                dealer[0],
            ),
        )
        room.stats["hands"] += 1
        if drop and len(dealt) >= 4 and rng.random() < JACKPOT_HIT:
            bad_beat_claim(
                room, hand_id=hand_id, seats=seats, dealt=dealt, winner=winner, now=end, floor=floor
            )
        t = end + 5
    last = min(closed - 10, max(t + 10, closed - 120))
    for seat in range(1, 10):
        if seats[seat] is not None:
            leave(seats[seat], last)
    assert room.balances.get(chips, 0) == 0, f"table {number} keeps chips after closing"
    room.audit(
        closed,
        floor,
        "cashgame.table_close",
        "cashgame.cashtable",
        table_id,
        repr_,
        _snapshot(table, game, "closed", opened, closed),
    )
    # RAK-5: the drop box of the opening, counted against the hand log's rake.
    variance = 0 if rng.random() < 0.94 else rng.choice((-1, 1)) * room.chip * rng.randint(1, 20)
    counted = max(0, period_rake + variance)
    cashier = room.shift_at(closed - 60)
    w.add(
        s["drop"],
        (
            ids("drop"),
            table_id,
            opened,
            closed,
            counted,
            period_rake,
            counted - period_rake,
            raked_hands,
            cashier.cashier,
            closed + 900,
            "" if counted == period_rake else "Checked twice",
        ),
    )
