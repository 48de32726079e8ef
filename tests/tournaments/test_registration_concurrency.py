"""Two cashier desks registering at once (TRN-6, CAG-2): the tournament row lock serialises them.
PostgreSQL only (SQLite ignores row locks)."""

import threading

import pytest
from django.db import connection

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashier.models import CashierTransaction
from cashier.services import shift_open
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory
from tournaments.models import Entry
from tournaments.services.registration import entry_register


def _race(calls):
    results: list = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except DomainError as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_two_desks_same_player_one_entry__TRN_6():
    desks = [make_staff(f"desk{i}", Role.CASHIER) for i in range(2)]
    shifts = [shift_open(actor=desk, opening_float_cents=10_000, now=T0) for desk in desks]
    tournament = TournamentFactory(levels=[(25, 50, 600)])
    player = PlayerFactory()
    results = _race(
        [
            lambda i=i: entry_register(
                actor=desks[i],
                tournament=tournament,
                player=player,
                shift=shifts[i],
                idempotency_key=f"race-desk-{i}-key",
                now=T0,
            )
            for i in range(2)
        ]
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1 and errors[0].code == "entry_still_active"
    assert Entry.objects.count() == 1
    assert CashierTransaction.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_same_key_twice_at_once_one_entry__CAG_2():
    desk = make_staff("desk9", Role.CASHIER)
    shift = shift_open(actor=desk, opening_float_cents=10_000, now=T0)
    tournament = TournamentFactory(levels=[(25, 50, 600)])
    player = PlayerFactory()
    results = _race(
        [
            lambda: entry_register(
                actor=desk,
                tournament=tournament,
                player=player,
                shift=shift,
                idempotency_key="race-same-key",
                now=T0,
            )
        ]
        * 2
    )
    assert [r.pk for r in results if not isinstance(r, DomainError)] == [Entry.objects.get().pk] * 2
    assert CashierTransaction.objects.count() == 1
