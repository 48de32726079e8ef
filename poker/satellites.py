"""Satellites (SER-1): how many seats in the target tournament a prize pool buys, and the cash
left over. Money is integer cents; nothing is rounded, the pool is handed out exactly.

A seat is worth the target's whole buy-in (prize contribution + fee + bounty, TRN-6), because the
ticket that carries it pays that buy-in at the target's desk. Places 1..seats win a seat each;
the cash remainder goes to the next place (seats + 1). A pool smaller than one buy-in buys no
seat: it is paid in cash to first place, so the satellite still pays out exactly what it took in.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.common import PokerError


@dataclass(frozen=True)
class SatellitePlace:
    """One paid place of a satellite: a seat (ticket worth `amount_cents`) or cash."""

    place: int
    amount_cents: int
    seat: bool


@dataclass(frozen=True)
class SatelliteAward:
    seats: int
    cash_cents: int


def satellite_award(*, prize_pool_cents: int, seat_cents: int) -> SatelliteAward:
    """Seats = prize pool // the target's buy-in; the remainder is cash (SER-1)."""
    for name, value in (("prize_pool_cents", prize_pool_cents), ("seat_cents", seat_cents)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PokerError("bad_amount", f"{name} must be whole cents", rule="SER-1")
    if prize_pool_cents < 0:
        raise PokerError("bad_amount", "the prize pool cannot be negative", rule="SER-1")
    if seat_cents <= 0:
        raise PokerError("bad_amount", "a seat must be worth more than nothing", rule="SER-1")
    seats, cash = divmod(prize_pool_cents, seat_cents)
    return SatelliteAward(seats=seats, cash_cents=cash)


def satellite_places(*, seats: int, cash_cents: int, seat_cents: int) -> list[SatellitePlace]:
    """The paid places of an award, first place first: seats to places 1..seats, then the cash
    (if any) to the next place."""
    places = [SatellitePlace(place=n, amount_cents=seat_cents, seat=True) for n in range(1, seats + 1)]
    if cash_cents:
        places.append(SatellitePlace(place=seats + 1, amount_cents=cash_cents, seat=False))
    return places


def satellite_payouts(*, prize_pool_cents: int, seat_cents: int) -> list[SatellitePlace]:
    """Every paid place of a satellite with its worth; the amounts sum to the prize pool."""
    award = satellite_award(prize_pool_cents=prize_pool_cents, seat_cents=seat_cents)
    return satellite_places(seats=award.seats, cash_cents=award.cash_cents, seat_cents=seat_cents)
