"""Report figures on a day with nothing but the movements each test makes: a refund is never a
prize (TRN-2), and the AML list (PLY-2). They live apart from the known day's modules, which
build that day once per module."""

import itertools
import random

import pytest

from cashier.models import AccountKind, CashierTransaction, Entry
from cashier.services import cash_buy_in, shift_open
from players.services import player_verify_id
from reports.selectors import aml_list, daily_report, range_report
from reports.services import rollup_build_missing
from tests.factories import PlayerFactory
from tests.reports.known_day import DAY, NEXT, at, key
from tests.reports.test_prize_figures import figures_of
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register, refund_pay
from tournaments.services.tournaments import tournament_cancel

pytestmark = pytest.mark.django_db
LATER = at(12, day=12)
_keys = itertools.count(1)


def test_refund_is_not_a_prize_paid__TRN_2(manager, cashier):
    shift = shift_open(actor=cashier, opening_float_cents=100_000, now=at(10))
    tournament = TournamentFactory(start_at=at(19), prize_cents=9_000, fee_cents=1_000, min_players=2)
    entries = [
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=PlayerFactory(),
            shift=shift,
            idempotency_key=f"refund-figures-{next(_keys)}",
            now=at(18, n),
            rng=random.Random(n),
        )
        for n in range(3)
    ]
    tournament_cancel(actor=manager, tournament=tournament, now=at(18, 30))
    entries[0].refresh_from_db()
    refund_pay(
        actor=cashier, entry=entries[0], shift=shift, idempotency_key="refund-figures-pay", now=at(18, 40)
    )
    # The prize pool gave 270.00 EUR back: a debit of the pool that is no prize.
    pool_debits = sum(
        amount
        for amount in Entry.objects.filter(account__kind=AccountKind.PRIZE_POOL).values_list(
            "amount_cents", flat=True
        )
        if amount > 0
    )
    assert pool_debits == 27_000
    assert not CashierTransaction.objects.filter(kind="prize_payout").exists()
    daily = daily_report(day=DAY, now=LATER)
    f = daily.figures
    # 3 x 100.00 EUR owed back (prize part and fee), 100.00 of it paid: a refund, never a prize.
    assert (f.prize_contributions, f.prizes_paid, f.refunds, f.fees) == (0, 0, 30_000, 0)
    [line] = daily.tournaments.lines
    assert (line.contributions_cents, line.prizes_paid_cents, line.refunds_cents) == (0, 0, 30_000)
    ranged = range_report(start=DAY, end=DAY, now=LATER)
    assert figures_of(ranged.total) == figures_of(f)


def test_aml_list_names_players_over_threshold__PLY_2(cashier):
    shift = shift_open(actor=cashier, opening_float_cents=0, now=at(10))
    carol = PlayerFactory(last_name="Carol")
    player_verify_id(actor=cashier, player=carol)
    for hour in (11, 12, 13, 14):
        cash_buy_in(
            actor=cashier,
            shift=shift,
            player=carol,
            amount_cents=60_000,
            reference="table:1",
            idempotency_key=key(),
            now=at(hour),
        )
    for rolled_up in (False, True):
        if rolled_up:
            rollup_build_missing(now=LATER)
        [row] = aml_list(start=DAY, end=NEXT, now=LATER)
        assert (row.day, row.name, row.total_cents, row.transactions, row.id_verified) == (
            DAY,
            f"{carol.first_name} Carol",
            240_000,
            4,
            True,
        )
