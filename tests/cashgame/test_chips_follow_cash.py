"""Chips follow cash (CHP-2): a cash-game buy-in or top-up takes chips from the cage to the
player, a cash-out brings them back, a reversal moves them back again; the cage never hands out
chips it does not hold, and the books check sees every movement. Counts are per chip value in
cents (50 is a 0.50 EUR chip, 2500 a 25.00 EUR chip)."""

import pytest
from django.db.models import Sum

from cage.services import correction_approve, correction_request
from cardroom.errors import DomainError
from cardroom.models import IdempotentRequest
from cashgame.models import PlayerSession, SeatState, SessionEvent
from cashgame.services.hands import hand_end, hand_start
from cashgame.services.sessions import (
    session_buy_in,
    session_cash_out,
    session_release,
    session_state_change,
    session_top_up,
)
from cashier.models import CashierTransaction
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipEntry, ChipPosting, ChipSet, ChipSetKind
from chips.services import ChipLine, chip_account_for, chips_transfer
from chips.services.ledger import posting_insert
from reports.selectors.books import books_problems
from tests.cashgame.conftest import T0, at, key
from tests.factories import CAGE_STOCK, PlayerFactory, cage_stock

pytestmark = pytest.mark.django_db


def held(kind: str) -> dict[int, int]:
    """Chip value -> cash-game chips the account of `kind` holds (chips of none left out)."""
    rows = (
        ChipEntry.objects.filter(account__kind=kind, account__chip_set__kind=ChipSetKind.CASH)
        .values("denomination__value")
        .annotate(total=Sum("quantity"))
        .order_by("denomination__value")
    )
    return {row["denomination__value"]: row["total"] for row in rows if row["total"]}


def cage_less(chips: dict[int, int]) -> dict[int, int]:
    """The cage's full stock less `chips`."""
    return {value: count - chips.get(value, 0) for value, count in CAGE_STOCK.items()}


def written() -> tuple[int, ...]:
    return (
        ChipPosting.objects.count(),
        CashierTransaction.objects.count(),
        SessionEvent.objects.count(),
        IdempotentRequest.objects.count(),
    )


def buy_in(cashier, shift, table, player, *, seat: int, amount: int, minute: float = 1):
    return session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=player,
        seat=seat,
        amount_cents=amount,
        idempotency_key=key(),
        now=at(minute),
    )


def test_buy_in_top_up_and_cash_out_move_the_chips__CHP_2(cashier, shift, table12):
    eva = PlayerFactory(id_verified_at=T0)
    session = buy_in(cashier, shift, table12, eva, seat=1, amount=20_000)
    # 200.00 EUR as a stack the table plays with: eight 25.00 EUR chips.
    assert held(ChipAccountKind.HANDS) == {2500: 8}
    assert held(ChipAccountKind.CAGE) == cage_less({2500: 8})
    session_top_up(
        actor=cashier,
        shift=shift,
        session=session,
        amount_cents=5_000,
        chips_on_table_cents=15_000,
        idempotency_key=key(),
        now=at(5),
    )
    assert held(ChipAccountKind.HANDS) == {500: 10, 2500: 8}
    assert held(ChipAccountKind.CAGE) == cage_less({500: 10, 2500: 8})
    session_cash_out(actor=cashier, shift=shift, session=session, amount_cents=25_000, idempotency_key=key())
    assert held(ChipAccountKind.HANDS) == {}
    assert held(ChipAccountKind.CAGE) == CAGE_STOCK
    events = SessionEvent.objects.filter(session=session, chip_posting__isnull=False).order_by("pk")
    assert [(e.kind, e.chip_posting.kind) for e in events] == [
        ("buy_in", "sale"),
        ("top_up", "sale"),
        ("cash_out", "redemption"),
    ]
    assert books_problems() == []


def test_cash_out_after_change_at_the_table_takes_the_largest_chips__CHP_2(cashier, floor, shift, table12):
    winner, loser = PlayerFactory(id_verified_at=T0), PlayerFactory(id_verified_at=T0)
    first = buy_in(cashier, shift, table12, winner, seat=1, amount=20_000)
    second = buy_in(cashier, shift, table12, loser, seat=2, amount=10_000)
    for session in (first, second):
        session_state_change(actor=floor, session=session, action="posted", now=at(2))
    hand = hand_start(actor=floor, table=table12, seats=[1, 2], now=at(3))
    hand_end(actor=floor, hand=hand, pot_cents=2_500, now=at(4))  # no flop, no rake (RAK-2)
    assert held(ChipAccountKind.HANDS) == {2500: 12}
    # 212.50 EUR: the players hold only 25.00 EUR chips by the ledger, and the table changed some;
    # the cage takes back the largest chips that make the amount.
    session_cash_out(actor=cashier, shift=shift, session=first, amount_cents=21_250, idempotency_key=key())
    assert held(ChipAccountKind.HANDS) == {50: -1, 200: -1, 500: -2, 2500: 12, 10000: -2}
    assert held(ChipAccountKind.CAGE) == cage_less({50: -1, 200: -1, 500: -2, 2500: 12, 10000: -2})
    assert books_problems() == []


def test_reversed_buy_in_brings_the_chips_back_and_the_floor_frees_the_seat__CHP_2_CAG_6(
    cashier, floor, manager, manager2, shift, table12
):
    eva = PlayerFactory(id_verified_at=T0)
    buy_in(cashier, shift, table12, eva, seat=3, amount=15_000)
    assert held(ChipAccountKind.HANDS) == {2500: 6}
    record = CashierTransaction.objects.get(player=eva)
    request = correction_request(actor=manager, posting=record.posting, reason="Wrong player")
    correction_approve(actor=manager2, request=request)
    assert held(ChipAccountKind.HANDS) == {}
    assert held(ChipAccountKind.CAGE) == CAGE_STOCK
    session = PlayerSession.objects.get(player=eva)
    assert (session.state, session.buy_in_cents) == (SeatState.AWAITING_BUY_IN, 0)
    correction = SessionEvent.objects.get(session=session, kind="correction")
    assert correction.chip_posting.kind == "redemption"
    # The one next step for the floor: the seat is free again.
    session_release(actor=floor, session=session)
    assert not PlayerSession.objects.filter(table=table12, ended_at__isnull=True).exists()
    assert books_problems() == []


def test_reversed_cash_out_gives_the_player_the_chips_again__CHP_2_CAG_6(
    cashier, manager, manager2, shift, table12
):
    eva = PlayerFactory(id_verified_at=T0)
    session = buy_in(cashier, shift, table12, eva, seat=1, amount=20_000)
    session_cash_out(actor=cashier, shift=shift, session=session, amount_cents=20_000, idempotency_key=key())
    record = CashierTransaction.objects.get(player=eva, kind="cash_out")
    correction_approve(
        actor=manager2, request=correction_request(actor=manager, posting=record.posting, reason="Not his")
    )
    assert held(ChipAccountKind.HANDS) == {2500: 8}
    assert held(ChipAccountKind.CAGE) == cage_less({2500: 8})
    assert PlayerSession.objects.get(player=eva).state == SeatState.SITTING_OUT
    assert books_problems() == []


def test_buy_in_the_cage_cannot_pay_in_chips_refused_and_nothing_written__CHP_2(cashier, table12):
    shift = shift_open(actor=cashier, opening_float_cents=100_000, now=T0)
    eva = PlayerFactory(id_verified_at=T0)
    before = written()
    with pytest.raises(DomainError) as refused:
        buy_in(cashier, shift, table12, eva, seat=1, amount=20_000)
    assert (refused.value.code, refused.value.rule) == ("cage_short_of_chips", "CHP-2")
    assert str(refused.value.message) == (
        "The cage holds 0.00 EUR in cash-game chips, not enough for 200.00 EUR: bring chips from the "
        "vault to the cage first."
    )
    # Enough in worth, not in the chips: only 100.00 EUR chips, and 150.00 EUR asked.
    cage_stock(cashier, chips={10000: 5})
    before = written()
    with pytest.raises(DomainError) as refused:
        buy_in(cashier, shift, table12, eva, seat=1, amount=15_000)
    assert str(refused.value.message) == (
        "The cage cannot make 150.00 EUR from the chips it holds (500.00 EUR): bring smaller chips "
        "from the vault to the cage first."
    )
    assert written() == before
    assert not PlayerSession.objects.filter(player=eva).exists()
    assert held(ChipAccountKind.CAGE) == {10000: 5}


def test_an_amount_no_chips_make_refused_and_nothing_written__CHP_2(cashier, shift, table12):
    eva = PlayerFactory(id_verified_at=T0)
    before = written()
    with pytest.raises(DomainError) as refused:
        buy_in(cashier, shift, table12, eva, seat=1, amount=10_025)
    assert (refused.value.code, refused.value.rule) == ("not_in_chips", "CHP-2")
    assert str(refused.value.message) == (
        "100.25 EUR cannot be paid in chips: the smallest cash-game chip is 0.50 EUR."
    )
    assert written() == before


def test_cash_chips_move_to_players_only_with_the_money__CHP_2(cashier, shift):
    cash = ChipSet.objects.get(kind=ChipSetKind.CASH)
    before = written()
    with pytest.raises(DomainError) as refused:
        chips_transfer(
            actor=cashier,
            chip_set=cash,
            source=ChipAccountKind.CAGE,
            target=ChipAccountKind.HANDS,
            chips={2500: 4},
            now=T0,
        )
    assert (refused.value.code, refused.value.rule) == ("chips_follow_cash", "CHP-2")
    assert written() == before


def test_the_books_see_chips_that_moved_without_money__CHP_2(cashier, shift, table12):
    buy_in(cashier, shift, table12, PlayerFactory(id_verified_at=T0), seat=1, amount=20_000)
    assert books_problems() == []
    # A door that moved chips to a player without the money, and without the cage's custody check.
    cash = ChipSet.objects.get(kind=ChipSetKind.CASH)
    chip = cash.denominations.get(value=2500)
    posting_insert(
        actor=cashier,
        chip_set=cash,
        kind="sale",
        lines=[
            ChipLine(chip_account_for(chip_set=cash, kind=ChipAccountKind.CAGE), chip, -4),
            ChipLine(chip_account_for(chip_set=cash, kind=ChipAccountKind.HANDS), chip, 4),
        ],
        now=T0,
    )
    assert [(check.name, check.expected, check.actual) for check in books_problems()] == [
        ("Cash-game chips in players' hands = chips sold - chips taken back at cash-outs", 20_000, 30_000)
    ]
