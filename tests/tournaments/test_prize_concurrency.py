"""A prize paid twice at once with one idempotency key (TRN-10, CAG-2): the retry waits on the
entry's lock behind its first request and answers with its result. PostgreSQL only (SQLite
ignores row locks)."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashier.models import CashierTransaction
from cashier.services import shift_open
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory
from tests.tournaments.test_registration_concurrency import _race
from tournaments.models import Entry
from tournaments.services.payouts import entry_bust, prize_pay
from tournaments.services.registration import entry_register, tournament_start

S = timedelta(seconds=1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_same_prize_key_twice_at_once_one_payout__CAG_2():
    desk = make_staff("prize-desk", Role.CASHIER)
    floor = make_staff("prize-floor", Role.FLOOR)
    shift = shift_open(actor=desk, opening_float_cents=100_000, now=T0)
    tournament = TournamentFactory(levels=[(25, 50, 600)], min_players=2)
    entries = [
        entry_register(
            actor=desk,
            tournament=tournament,
            player=PlayerFactory(),
            shift=shift,
            idempotency_key=f"prize-race-entry-{i}",
            now=T0,
            rng=random.Random(i),
        )
        for i in range(3)
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[0].pk, 100)], now=T0 + S)
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[1].pk, 100)], now=T0 + 2 * S)
    winner = Entry.objects.get(pk=entries[2].pk)
    assert winner.finish_place == 1 and winner.prize_cents > 0

    results = _race(
        [
            lambda: prize_pay(
                actor=desk, entry=winner, shift=shift, idempotency_key="prize-race-same", now=T0 + 3 * S
            )
        ]
        * 2
    )

    assert [r for r in results if isinstance(r, DomainError)] == []
    record = CashierTransaction.objects.get(kind="prize_payout")
    assert record.amount_cents == winner.prize_cents
    assert [r.prize_transaction_id for r in results] == [record.pk, record.pk]
