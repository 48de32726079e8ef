"""Satellite seats and the cash remainder (SER-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker.common import PokerError
from poker.satellites import SatellitePlace, satellite_award, satellite_payouts


def test_three_seats_and_cash_to_fourth_SER_1() -> None:
    # 1,000.00 EUR pool, target buy-in 300.00: 3 seats, 100.00 in cash to 4th place.
    assert satellite_award(prize_pool_cents=100_000, seat_cents=30_000).seats == 3
    assert satellite_payouts(prize_pool_cents=100_000, seat_cents=30_000) == [
        SatellitePlace(place=1, amount_cents=30_000, seat=True),
        SatellitePlace(place=2, amount_cents=30_000, seat=True),
        SatellitePlace(place=3, amount_cents=30_000, seat=True),
        SatellitePlace(place=4, amount_cents=10_000, seat=False),
    ]


def test_pool_exactly_two_seats_no_cash_SER_1() -> None:
    assert satellite_award(prize_pool_cents=60_000, seat_cents=30_000).cash_cents == 0
    assert satellite_payouts(prize_pool_cents=60_000, seat_cents=30_000) == [
        SatellitePlace(place=1, amount_cents=30_000, seat=True),
        SatellitePlace(place=2, amount_cents=30_000, seat=True),
    ]


def test_pool_below_one_buy_in_all_cash_to_first_SER_1() -> None:
    assert satellite_payouts(prize_pool_cents=25_000, seat_cents=30_000) == [
        SatellitePlace(place=1, amount_cents=25_000, seat=False)
    ]


def test_cents_remainder_kept_exactly_SER_1() -> None:
    # 1,234.56 EUR at a 109.99 EUR seat: 11 seats, 24.67 EUR in cash to 12th.
    award = satellite_award(prize_pool_cents=123_456, seat_cents=10_999)
    assert (award.seats, award.cash_cents) == (11, 2_467)
    assert satellite_payouts(prize_pool_cents=123_456, seat_cents=10_999)[-1] == SatellitePlace(
        place=12, amount_cents=2_467, seat=False
    )


def test_empty_pool_pays_nothing_SER_1() -> None:
    assert satellite_payouts(prize_pool_cents=0, seat_cents=30_000) == []


@pytest.mark.parametrize(("pool", "seat"), [(-1, 100), (100, 0), (100, -5), (1.5, 100), (100, True)])
def test_bad_amounts_refused_SER_1(pool, seat) -> None:
    with pytest.raises(PokerError) as refused:
        satellite_award(prize_pool_cents=pool, seat_cents=seat)
    assert refused.value.rule == "SER-1"


@given(seat=st.integers(1, 10**8), seats=st.integers(0, 300), extra=st.integers(0, 10**8))
def test_places_sum_to_the_pool_SER_1(seat: int, seats: int, extra: int) -> None:
    pool = seats * seat + extra % seat
    places = satellite_payouts(prize_pool_cents=pool, seat_cents=seat)
    assert sum(p.amount_cents for p in places) == pool
    assert [p.place for p in places] == list(range(1, len(places) + 1))
    seats = [p for p in places if p.seat]
    assert len(seats) == pool // seat
    assert all(p.amount_cents == seat for p in seats)
    cash = [p for p in places if not p.seat]
    # At most one cash place, after every seat, worth less than a seat.
    assert len(cash) <= 1
    assert all(0 < p.amount_cents < seat and p.place == len(seats) + 1 for p in cash)
