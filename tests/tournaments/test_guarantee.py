"""The guarantee (TRN-3 to TRN-5): decided by the clock at the end of the deadline level, on the
count of distinct present players, and the overlay posted once when the payouts are final."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import AccountKind
from cashier.selectors import account_amount, ledger_total, prize_pool_balance
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0
from tournaments.models import PayoutPlace
from tournaments.services._common import rules_for
from tournaments.services.clock import clock_advance_due
from tournaments.services.payouts import entry_bust, payouts_finalise
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)
END_OF_LEVEL_3 = T0 + 1800 * S


def field(floor, register, tournament, *, present: int, absent: int = 0, reentries: int = 0):
    """`present` distinct present players (the first `reentries` of them bust and re-enter,
    present again), and `absent` registered players not marked present."""
    players = [PlayerFactory() for _ in range(present)]
    entries = [register(tournament, player) for player in players]
    for _ in range(absent):
        register(tournament, present=False)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(5))
    for i in range(reentries):
        entry_bust(
            actor=floor, tournament=tournament, busted=[(entries[i].pk, 20_000)], now=T0 + (10 + i) * S
        )
        register(tournament, players[i], now=T0 + (20 + i) * S)
    return tournament


def decide(tournament):
    # The scheduled rise at the end of level 3, with no one touching the system.
    clock_advance_due(tournament_id=tournament.pk, now=END_OF_LEVEL_3)
    return rules_for(tournament)


def guaranteed(make_tournament, **kwargs):
    kwargs.setdefault("guarantee_mode", "conditional")
    return make_tournament(guarantee_cents=200_000, late_registration_level=3, max_reentries=2, **kwargs)


def test_14_present_players_guarantee_does_not_hold__TRN_3(floor, register, make_tournament):
    # 14 persons present, one re-entered (15 present entries) and one registered but absent.
    tournament = field(floor, register, guaranteed(make_tournament), present=14, absent=1, reentries=1)
    rules = rules_for(tournament)
    clock_advance_due(tournament_id=tournament.pk, now=END_OF_LEVEL_3 - S)
    assert rules_for(tournament).guarantee_decided_at is None  # level 3 has not ended yet
    rules = decide(tournament)
    assert (rules.guarantee_outcome, rules.guarantee_count, rules.guarantee_decided_at) == (
        "not_held",
        14,
        END_OF_LEVEL_3,
    )
    record = AuditRecord.objects.get(action="tournament.guarantee_decided")
    assert record.actor is None and record.actor_name == "system"
    assert record.after["present_players"] == 14 and record.after["required"] == 15
    # Payouts are then the collected pool only: no overlay.
    payouts_finalise(actor=floor, tournament=tournament, now=END_OF_LEVEL_3 + S)
    rules = rules_for(tournament)
    assert (rules.collected_prize_cents, rules.overlay_cents, rules.prize_pool_cents) == (144_000, 0, 144_000)
    assert account_amount(kind=AccountKind.OVERLAY_EXPENSE) == 0


def test_15_present_players_guarantee_holds_and_overlay_posted__TRN_3_TRN_5(floor, register, make_tournament):
    tournament = field(floor, register, guaranteed(make_tournament), present=15, reentries=1)
    rules = decide(tournament)
    assert (rules.guarantee_outcome, rules.guarantee_count) == ("held", 15)
    clock_advance_due(tournament_id=tournament.pk, now=END_OF_LEVEL_3 + 700 * S)  # decided once only
    assert AuditRecord.objects.filter(action="tournament.guarantee_decided").count() == 1
    # 16 entries x 90.00 collected = 1,440.00; the guarantee is 2,000.00: overlay 560.00 (TRN-5).
    assert prize_pool_balance(tournament_id=tournament.pk) == 144_000
    payouts_finalise(actor=floor, tournament=tournament, now=END_OF_LEVEL_3 + S)
    rules = rules_for(tournament)
    assert (rules.collected_prize_cents, rules.overlay_cents, rules.prize_pool_cents) == (
        144_000,
        56_000,
        200_000,
    )
    assert account_amount(kind=AccountKind.OVERLAY_EXPENSE) == 56_000
    assert prize_pool_balance(tournament_id=tournament.pk) == 200_000
    assert list(PayoutPlace.objects.values_list("place", "amount_cents")) == [
        (1, 90_000),
        (2, 54_000),
        (3, 34_000),
        (4, 22_000),
    ]
    assert ledger_total() == 0
    with pytest.raises(DomainError) as error:
        payouts_finalise(actor=floor, tournament=tournament, now=END_OF_LEVEL_3 + 2 * S)
    assert error.value.code == "cannot_finalise"
    assert account_amount(kind=AccountKind.OVERLAY_EXPENSE) == 56_000  # posted once


def test_unconditional_guarantee_holds_with_few_players__TRN_4(floor, register, make_tournament):
    tournament = field(
        floor, register, guaranteed(make_tournament, guarantee_mode="unconditional"), present=3
    )
    rules = decide(tournament)
    assert (rules.guarantee_outcome, rules.guarantee_count) == ("held", 3)
    payouts_finalise(actor=floor, tournament=tournament, now=END_OF_LEVEL_3 + S)
    assert rules_for(tournament).overlay_cents == 200_000 - 27_000


@pytest.mark.parametrize(("present", "outcome"), [(9, "not_held"), (10, "held")])
def test_own_player_count_replaces_15__TRN_4(floor, register, make_tournament, present, outcome):
    tournament = guaranteed(make_tournament, guarantee_mode="own_count", guarantee_player_count=10)
    tournament = field(floor, register, tournament, present=present, absent=1)
    rules = decide(tournament)
    assert (rules.guarantee_outcome, rules.guarantee_count) == (outcome, present)


def test_guarantee_without_enough_collected_is_paid_in_full__TRN_5(floor, register, make_tournament):
    tournament = field(
        floor, register, guaranteed(make_tournament, guarantee_mode="unconditional"), present=2
    )
    decide(tournament)
    entries = list(tournament.entries.order_by("number"))
    # Heads-up bust: the payouts finalise by themselves and the winner takes the guarantee.
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[1].pk, 20_000)], now=END_OF_LEVEL_3 + S)
    entries = list(tournament.entries.order_by("number").values_list("finish_place", "prize_cents"))
    assert entries == [(1, 200_000), (2, None)]
