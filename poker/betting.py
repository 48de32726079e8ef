"""Blinds, straddle and betting limits for the floor's calculators (BET-1..BET-4).

Amounts are integers (cents or chips). All bet sizes are "to" amounts: a player's total bet in the
current betting round, the way a dealer announces "raise to 60". A `BettingRound` holds what the
rules need about the round so far; the functions read it and `BettingRound.after_bet` returns the
next one. Dead-button rules and missed blinds (CSH-6) are handled by the caller.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum

from poker.common import PokerError

FIXED_LIMIT_RAISE_CAP = 3  # BET-2: at most three raises per betting round


class Limit(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


@dataclass(frozen=True)
class BlindSeats:
    """Seats that post this hand (BET-1, BET-4). `straddle` is the seat that may straddle."""

    button: int
    small_blind: int
    big_blind: int
    straddle: int | None


def blind_seats(*, button: int, occupied: Iterable[int]) -> BlindSeats:
    """Small blind left of the button, big blind next; heads-up the button posts the SB (BET-1).

    `occupied` are the seats dealt in (seat numbers grow clockwise); `button` is one of them. The
    straddle seat is the player left of the big blind (BET-4); heads-up there is none, because
    the seat left of the big blind is the button, who already posts the small blind.
    """
    seats = sorted(set(occupied))
    if button not in seats:
        raise PokerError("bad_button", "the button must be on an occupied seat", rule="BET-1")
    if len(seats) < 2:
        raise PokerError("too_few_players", "a hand needs at least two players", rule="BET-1")
    start = seats.index(button)
    clockwise = seats[start:] + seats[:start]  # button first
    if len(clockwise) == 2:
        return BlindSeats(button=button, small_blind=button, big_blind=clockwise[1], straddle=None)
    # Three-handed, the seat left of the big blind is the button, who may then straddle.
    return BlindSeats(
        button=button,
        small_blind=clockwise[1],
        big_blind=clockwise[2],
        straddle=clockwise[3 % len(clockwise)],
    )


def straddle_amount(big_blind: int) -> int:
    """A straddle is two big blinds (BET-4)."""
    return 2 * big_blind


def fixed_limit_bet_size(street: Street, big_blind: int) -> int:
    """Small bet = big blind pre-flop and on the flop; big bet = 2 x big blind after (BET-2)."""
    return big_blind if street <= Street.FLOP else 2 * big_blind


@dataclass(frozen=True)
class BettingRound:
    """One betting round so far.

    - `current_bet`: the highest "to" amount anyone has bet this round (0 if nobody bet yet).
    - `last_raise`: size of the last full bet or raise; the minimum next raise (BET-2). Starts at
      the big blind, and an all-in short of a full raise leaves it unchanged (BET-3).
    - `raises`: full raises so far this round, for the fixed-limit cap. The blinds and the first
      bet of a round are not raises; a straddle is (it raises the big blind).
    - `pot`: every chip in the middle, including all bets of this round so far.
    """

    limit: Limit
    street: Street
    big_blind: int
    current_bet: int
    last_raise: int
    raises: int
    pot: int

    def to_call(self, player_bet: int) -> int:
        """Chips a player who already has `player_bet` out needs to call."""
        return max(0, self.current_bet - player_bet)

    def full_raise(self) -> int:
        """Size of a full bet or raise now: fixed in limit, else the last one (BET-2)."""
        if self.limit is Limit.FIXED_LIMIT:
            return fixed_limit_bet_size(self.street, self.big_blind)
        return max(self.last_raise, self.big_blind)

    def after_bet(self, *, player_bet: int, to: int) -> BettingRound:
        """The round after a player who had `player_bet` out bets, calls or raises to `to`.

        A raise of at least a full raise resets `last_raise` and counts toward the cap; a shorter
        one (only legal all-in) moves `current_bet` but changes neither (BET-3).
        """
        if to < player_bet:
            raise PokerError("bad_bet", "a bet cannot take chips back")
        pot = self.pot + (to - player_bet)
        if to <= self.current_bet:
            return replace(self, pot=pot)
        increase = to - self.current_bet
        if increase < self.full_raise():
            return replace(self, pot=pot, current_bet=to)
        opening_bet = self.current_bet == 0
        return replace(
            self,
            pot=pot,
            current_bet=to,
            last_raise=increase,
            raises=self.raises if opening_bet else self.raises + 1,
        )


def preflop_round(
    *,
    limit: Limit,
    small_blind: int,
    big_blind: int,
    straddle: bool = False,
    antes: int = 0,
) -> BettingRound:
    """The pre-flop round once the blinds (and optional straddle, BET-4) are posted.

    A straddle acts as the largest blind: the current bet is 2 x BB and the minimum raise is the
    straddle's size, as in most houses ("the straddle is the new big blind"). In fixed limit it
    counts as the first raise toward the cap. `antes` is the total of antes in the pot.
    """
    if not 0 < small_blind <= big_blind:
        raise PokerError("bad_blinds", "blinds must satisfy 0 < small blind <= big blind")
    pot = small_blind + big_blind + antes
    if not straddle:
        return BettingRound(limit, Street.PREFLOP, big_blind, big_blind, big_blind, 0, pot)
    amount = straddle_amount(big_blind)
    if limit is Limit.FIXED_LIMIT:
        return BettingRound(limit, Street.PREFLOP, big_blind, amount, big_blind, 1, pot + amount)
    return BettingRound(limit, Street.PREFLOP, big_blind, amount, amount, 0, pot + amount)


def postflop_round(*, limit: Limit, street: Street, big_blind: int, pot: int) -> BettingRound:
    """A new betting round after the flop, turn or river: nothing bet yet."""
    if street is Street.PREFLOP:
        raise PokerError("bad_street", "use preflop_round for the first round")
    return BettingRound(limit, street, big_blind, 0, big_blind, 0, pot)


def can_raise(state: BettingRound, *, player_bet: int, player_stack: int) -> bool:
    """Whether a raise (or the first bet) is possible at all for this player (BET-2, BET-3).

    False when he cannot put in more than a call, or when fixed limit is capped.
    """
    if player_stack <= state.to_call(player_bet):
        return False
    return not (state.limit is Limit.FIXED_LIMIT and state.raises >= FIXED_LIMIT_RAISE_CAP)


def min_raise_to(state: BettingRound, *, player_bet: int, player_stack: int) -> int | None:
    """Smallest legal bet or raise "to" amount for this player, or None if he cannot raise.

    No-limit and pot-limit: the current bet plus the last bet or raise (at least the big blind);
    fixed limit: plus the fixed bet size (BET-2). A player whose chips do not reach that may still
    go all-in for less (CSH-4), so the result is capped at his all-in amount.
    """
    if not can_raise(state, player_bet=player_bet, player_stack=player_stack):
        return None
    return min(state.current_bet + state.full_raise(), player_bet + player_stack)


def max_raise_to(state: BettingRound, *, player_bet: int, player_stack: int) -> int | None:
    """Largest legal bet or raise "to" amount for this player, or None if he cannot raise (BET-2).

    No-limit: all his chips. Pot-limit: the pot including his call, i.e. call first, then raise
    by the whole pot: `current_bet + pot + to_call`. Fixed limit: exactly one bet size more.
    Always capped at his all-in amount (table stakes, CSH-4).
    """
    if not can_raise(state, player_bet=player_bet, player_stack=player_stack):
        return None
    all_in = player_bet + player_stack
    if state.limit is Limit.NO_LIMIT:
        return all_in
    if state.limit is Limit.POT_LIMIT:
        pot_after_call = state.pot + state.to_call(player_bet)
        # The minimum raise stays legal even when the pot is smaller than it.
        pot_raise = max(pot_after_call, state.full_raise())
        return min(state.current_bet + pot_raise, all_in)
    return min(state.current_bet + state.full_raise(), all_in)


def check_bet(state: BettingRound, *, player_bet: int, player_stack: int, to: int) -> None:
    """Raise `PokerError` (BET-2) unless betting/raising to `to` is legal for this player.

    A call (or check) is always legal; an all-in is legal at any size up to the limit.
    """
    all_in = player_bet + player_stack
    if to < player_bet:
        raise PokerError("bad_bet", "a bet cannot take chips back", rule="BET-2")
    if to > all_in:
        raise PokerError("over_stack", "a player plays only for the chips in front of him", rule="CSH-4")
    if to <= state.current_bet:
        if to < min(state.current_bet, all_in):
            raise PokerError("short_call", "calling needs the full amount or all chips", rule="BET-2")
        return
    low = min_raise_to(state, player_bet=player_bet, player_stack=player_stack)
    high = max_raise_to(state, player_bet=player_bet, player_stack=player_stack)
    if low is None or high is None:
        raise PokerError("raise_not_allowed", "betting is capped or closed for this player", rule="BET-2")
    if to > high:
        raise PokerError("over_limit", f"the most this player can raise to is {high}", rule="BET-2")
    if to < low and to != all_in:
        raise PokerError("under_min_raise", f"the minimum raise is to {low}", rule="BET-2")


def reopens_betting(
    *, bet_faced_when_acted: int, current_bet: int, full_raise: int, half_bet_rule: bool = False
) -> bool:
    """Whether a player who already acted may raise again when the action returns (BET-3).

    `bet_faced_when_acted` is the bet he last matched or made, `current_bet` the bet now, and
    `full_raise` the size of a full raise at the time he acted (`BettingRound.full_raise()`).
    Full bet rule (the default): the betting reopens for him only when he now faces at least a
    full raise; an all-in raise smaller than that does not, and several short all-ins reopen it
    only once they add up to a full raise (as the TDA rule counts them). With the house's
    half-bet rule (`half_bet_rule`, a per-game option), at least half a full raise reopens it.
    Either way the minimum raise stays the last full raise (`BettingRound.after_bet`). A player
    who has not acted yet may always raise.
    """
    faced = current_bet - bet_faced_when_acted
    if half_bet_rule:
        return 2 * faced >= full_raise  # in integers: faced >= full_raise / 2
    return faced >= full_raise
