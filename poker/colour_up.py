"""Colour-ups and the TDA chip race (CHP-1): plain functions on chip values.

A tournament's chip set is a list of denominations (chip values, e.g. 25, 100, 500, 1000). A
chip is needed while some blind or ante still to come is not a multiple of the next chip up;
once every amount from a level on is a multiple of a larger chip, the smaller ones leave play.
Rooms colour up during a break, so a chip that stops being needed leaves at the first level after
the next break (or at the level itself when no break follows).

At each table the leaving chips are exchanged for the smallest chip still in play ("the chip
up"): every whole chip's worth is exchanged, and what is left over (the odd chips) is raced:

- the odd chips of the table together make `round(total / chip up)` chips (half rounds up);
- each player with odd chips is dealt one card per odd chip; the highest cards win one chip each,
  ties of rank broken by suit, spades > hearts > diamonds > clubs; no player wins more than one;
- no player is raced out: a player who loses the race with his last chips gets one chip up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from poker.common import PokerError
from poker.hands import RANKS, SUITS_HIGH_TO_LOW, ensure_distinct, parse_card

RULE = "CHP-1"

# A level's amounts (small blind, big blind, ante) in chips, or None for a break.
LevelAmounts = Sequence[int] | None


def _denominations(denominations: Iterable[int]) -> tuple[int, ...]:
    values = tuple(sorted(set(denominations)))
    if not values or values[0] <= 0:
        raise PokerError("no_denominations", "a chip set needs positive denominations", rule=RULE)
    return values


def smallest_needed(amounts: Iterable[int], denominations: Iterable[int]) -> int:
    """The largest chip that every amount is a multiple of: the smallest chip the table needs.
    The smallest chip of the set when no chip divides them all (the structure needs it anyway)."""
    values = _denominations(denominations)
    wanted = [amount for amount in amounts if amount > 0]
    fitting = [chip for chip in values if all(amount % chip == 0 for amount in wanted)]
    return max(fitting) if fitting else values[0]


@dataclass(frozen=True)
class ColourUp:
    """Chips that leave play at the level at `position` (an index into the levels given)."""

    position: int
    leaving: tuple[int, ...]
    chip_up: int


def colour_ups(levels: Sequence[LevelAmounts], denominations: Iterable[int]) -> list[ColourUp]:
    """Every colour-up of a structure, in order (see the module for when a chip leaves)."""
    values = _denominations(denominations)
    playing = [index for index, level in enumerate(levels) if level is not None]
    if not playing:
        return []
    # needed[i]: the smallest chip needed at playing level i and every later one.
    needed: dict[int, int] = {}
    later: list[int] = []
    for index in reversed(playing):
        later.extend(levels[index])
        needed[index] = smallest_needed(later, values)
    in_play = values[0]
    answers: list[ColourUp] = []
    for index in playing:
        if needed[index] <= in_play:
            continue
        leaving = tuple(chip for chip in values if in_play <= chip < needed[index])
        at = _after_next_break(levels, index)
        if answers and answers[-1].position == at:
            # Two colour-ups at one break are one: every leaving chip goes at once.
            leaving = answers.pop().leaving + leaving
        answers.append(ColourUp(position=at, leaving=leaving, chip_up=needed[index]))
        in_play = needed[index]
    return answers


def _after_next_break(levels: Sequence[LevelAmounts], index: int) -> int:
    """The first level after the break just before `index`, or after the next break; `index`
    itself when no break follows."""
    if index > 0 and levels[index - 1] is None:
        return index
    for position in range(index + 1, len(levels) - 1):
        if levels[position] is None:
            following = next((p for p in range(position + 1, len(levels)) if levels[p] is not None), None)
            if following is not None:
                return following
    return index


class RaceError(PokerError):
    """A race result that breaks CHP-1, naming the seat and the chip up for the message."""

    def __init__(self, code: str, message: str, *, seat: int, chip_up: int) -> None:
        super().__init__(code, message, rule=RULE)
        self.seat = seat
        self.chip_up = chip_up


@dataclass(frozen=True)
class RaceSeat:
    """One player at the colour-up: the leaving chips he holds (chip value -> count), whether
    he has chips still in play beside them, and the best card he was dealt for the race (needed
    only when he has odd chips)."""

    seat: int
    leaving: Mapping[int, int]
    other_chips: bool = True
    card: str | None = None


@dataclass(frozen=True)
class SeatResult:
    seat: int
    leaving_value: int
    exchanged: int  # chips up given for whole chips' worth
    odd_value: int  # what is raced
    cards: int  # cards dealt: one per odd chip (counted in the smallest leaving chip)
    won: bool  # won a chip up in the race
    saved: bool  # lost the race with his last chips: one chip up anyway

    @property
    def chips_up(self) -> int:
        return self.exchanged + int(self.won) + int(self.saved)


@dataclass(frozen=True)
class TableColourUp:
    chip_up: int
    seats: tuple[SeatResult, ...]
    odd_total: int  # value of every odd chip at the table
    raced: int  # chips up raced for

    @property
    def chips_back(self) -> int:
        """Value of the leaving chips that go back to the cage."""
        return sum(seat.leaving_value for seat in self.seats)

    @property
    def chips_to_bring(self) -> int:
        """Chips up to bring from the cage for this table."""
        return sum(seat.chips_up for seat in self.seats)

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(seat.seat for seat in self.seats if seat.won)

    @property
    def saved(self) -> frozenset[int]:
        return frozenset(seat.seat for seat in self.seats if seat.saved)


def card_key(card: str) -> tuple[int, int]:
    """Higher is better: rank (ace high), then suit spades > hearts > diamonds > clubs."""
    return RANKS.index(card[0]), -SUITS_HIGH_TO_LOW.index(card[1])


def races_for(odd_total: int, chip_up: int) -> int:
    """Chips raced for: the odd chips' worth in chips up, half a chip or more rounding up."""
    return (2 * odd_total + chip_up) // (2 * chip_up)


def table_colour_up(seats: Sequence[RaceSeat], chip_up: int) -> TableColourUp:
    """The colour-up of one table by the TDA chip race (see the module)."""
    if chip_up <= 0:
        raise PokerError("bad_chip_up", "the chip up must be positive", rule=RULE)
    if len({seat.seat for seat in seats}) != len(seats):
        raise PokerError("seat_twice", "a seat is listed twice", rule=RULE)
    rows = []
    for seat in seats:
        if any(count < 0 for count in seat.leaving.values()):
            raise PokerError("negative_chips", f"seat {seat.seat}: chip counts cannot be negative", rule=RULE)
        if any(chip <= 0 or chip >= chip_up for chip in seat.leaving if seat.leaving[chip]):
            raise PokerError(
                "not_leaving", f"seat {seat.seat}: only chips below {chip_up} are raced", rule=RULE
            )
        value = sum(chip * count for chip, count in seat.leaving.items())
        if value == 0 and not seat.other_chips:
            raise PokerError(
                "no_chips", f"seat {seat.seat} has no chips: he is not in the tournament", rule=RULE
            )
        rows.append((seat, value))
    smallest = min((chip for seat, _ in rows for chip, count in seat.leaving.items() if count), default=1)
    odd = {seat.seat: value % chip_up for seat, value in rows}
    odd_total = sum(odd.values())
    raced = races_for(odd_total, chip_up)
    cards = {}
    for seat, _ in rows:
        if odd[seat.seat]:
            if not seat.card:
                raise PokerError(
                    "card_missing", f"seat {seat.seat} has odd chips: enter his best card", rule=RULE
                )
            cards[seat.seat] = parse_card(seat.card)
    ensure_distinct(list(cards.values()))
    ranked = sorted(cards, key=lambda number: card_key(cards[number]), reverse=True)
    winners = set(ranked[:raced])
    results = []
    for seat, value in rows:
        exchanged = value // chip_up
        won = seat.seat in winners
        saved = not seat.other_chips and exchanged == 0 and not won
        results.append(
            SeatResult(
                seat=seat.seat,
                leaving_value=value,
                exchanged=exchanged,
                odd_value=odd[seat.seat],
                cards=odd[seat.seat] // smallest,
                won=won,
                saved=saved,
            )
        )
    return TableColourUp(chip_up=chip_up, seats=tuple(results), odd_total=odd_total, raced=raced)


def race_check(result: TableColourUp, given: Iterable[int]) -> None:
    """Check the seats the table says got a chip up in the race against the TDA result: a
    player losing his last chips must get one (never raced out), and the chips must go to the
    highest cards. Raises PokerError naming CHP-1."""
    given = frozenset(given)
    up = result.chip_up
    for seat in sorted(result.saved - given):
        raise RaceError(
            "raced_out",
            f"seat {seat} would be raced out of the tournament: he lost the race with his last chips "
            f"and gets one chip of {up}",
            seat=seat,
            chip_up=up,
        )
    expected = result.winners | result.saved
    if given != expected:
        wrong = sorted(given ^ expected)
        raise RaceError(
            "race_mismatch",
            f"the race does not match the cards: {result.raced} chip(s) of {up} go to the highest cards "
            f"(seats {', '.join(map(str, sorted(result.winners))) or 'none'}); check seat {wrong[0]}",
            seat=wrong[0],
            chip_up=up,
        )
