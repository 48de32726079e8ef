"""The prize figures (TRN-2, TRN-10): one source for every report, prizes paid are prize payouts
only, and refunds are a line of their own."""

import itertools
import random
from dataclasses import asdict

import pytest

from cashier.models import AccountKind, CashierTransaction, Entry
from cashier.services import shift_open
from reports.selectors import daily_report, range_report
from reports.services import rollup_build_missing
from tests.factories import PlayerFactory
from tests.reports.known_day import DAY, NEXT, at
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register, refund_pay
from tournaments.services.tournaments import tournament_cancel

pytestmark = pytest.mark.django_db
LATER = at(12, day=12)
PRIZE_FIGURES = ["prize_contributions", "prizes_paid", "refunds"]
_keys = itertools.count(1)


def figures_of(figures) -> dict:
    values = asdict(figures)
    del values["label"], values["start"], values["end"]
    return values | {"house_result": figures.house_result}


def tournament_figures(line) -> dict:
    return {
        "prize_contributions": line.contributions_cents,
        "prizes_paid": line.prizes_paid_cents,
        "refunds": line.refunds_cents,
    }


@pytest.mark.parametrize("rolled_up", [False, True])
def test_daily_and_range_report_figures_agree_for_the_day__TRN_10(room, rolled_up):
    if rolled_up:
        rollup_build_missing(now=LATER)
    daily = daily_report(day=DAY, now=LATER)
    one_day = range_report(start=DAY, end=DAY, now=LATER)
    two_days = range_report(start=DAY, end=NEXT, now=LATER)
    expected = {
        "rake": 2_050,
        "fees": 6_000,
        "overlay": 46_000,
        "jackpot_drops": 200,
        "jackpot_payouts": 150,
        "cash_variance": -50,
        "prize_contributions": 54_000,
        "prizes_paid": 80_000,
        "refunds": 6_000,
        "house_result": -38_000,
    }
    assert figures_of(daily.figures) == expected
    for other in (one_day.total, one_day.periods[0], two_days.periods[0]):
        assert figures_of(other) == expected
    # The tournament tables of both reports give the same prize figures as the result rows.
    for tournaments in (daily.tournaments, one_day.tournaments):
        assert tournament_figures(tournaments.total) == {name: expected[name] for name in PRIZE_FIGURES}
    # The next day: the third prize, paid at 07:30 on the 11th.
    assert [two_days.periods[1].prizes_paid, two_days.periods[1].refunds] == [20_000, 0]
    assert two_days.total.prizes_paid == 100_000 == two_days.tournaments.total.prizes_paid_cents


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
