"""Two cashier desks paying the same bounties at once (TRN-6, CAG-2): the tournament and entry
row locks serialise them, so a bounty is paid once. PostgreSQL only (SQLite ignores row locks)."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount
from cashier.services import shift_open
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory
from tests.tournaments.test_registration_concurrency import _race
from tournaments.services.payouts import bounty_pay, entry_bust
from tournaments.services.registration import entry_register, tournament_start

S = timedelta(seconds=1)


def _knockout():
    """Two desks with open shifts; entry 2 knocked out entry 1 and won his 25.00 EUR bounty."""
    desks = [make_staff(f"bounty-desk{i}", Role.CASHIER) for i in range(2)]
    floor = make_staff("bounty-floor", Role.FLOOR)
    shifts = [shift_open(actor=desk, opening_float_cents=100_000, now=T0) for desk in desks]
    tournament = TournamentFactory(levels=[(25, 50, 600)], bounty_cents=2_500, min_players=2)
    entries = [
        entry_register(
            actor=desks[0],
            tournament=tournament,
            player=PlayerFactory(),
            shift=shifts[0],
            idempotency_key=f"bounty-race-entry-{i}",
            now=T0,
            rng=random.Random(i),
        )
        for i in range(3)
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(entries[0].pk, 100)],
        eliminators={entries[0].pk: [entries[1].pk]},
        now=T0 + S,
    )
    return tournament, desks, shifts, entries[1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_two_desks_pay_a_bounty_once__TRN_6():
    tournament, desks, shifts, winner = _knockout()
    results = _race(
        [
            lambda i=i: bounty_pay(
                actor=desks[i],
                entry=winner,
                shift=shifts[i],
                idempotency_key=f"bounty-race-{i}",
                now=T0 + 2 * S,
            )
            for i in range(2)
        ]
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1 and errors[0].code == "no_bounty_due"
    assert list(
        CashierTransaction.objects.filter(kind="bounty_payout").values_list("amount_cents", flat=True)
    ) == [2_500]
    assert account_amount(kind=AccountKind.BOUNTY_POOL, owner=f"tournament:{tournament.pk}") == 5_000


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_same_bounty_key_twice_at_once_one_payout__CAG_2():
    _tournament, desks, shifts, winner = _knockout()
    results = _race(
        [
            lambda: bounty_pay(
                actor=desks[0],
                entry=winner,
                shift=shifts[0],
                idempotency_key="bounty-race-same",
                now=T0 + 2 * S,
            )
        ]
        * 2
    )
    record = CashierTransaction.objects.get(kind="bounty_payout")
    assert [r.pk for r in results if not isinstance(r, DomainError)] == [record.pk] * 2
