"""Eight cashiers' clients at once on PostgreSQL, with random same-key retries (CAG-1, CAG-2)."""

import random
import threading
from functools import partial

import pytest
from django.db import connection, connections
from django.db.models import Count, Sum

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.models import IdempotentRequest
from cashier.models import CashierTransaction, Entry
from cashier.selectors import drawer_expected, ledger_total, unbalanced_postings
from cashier.services import cash_buy_in, cash_out, shift_open
from tests.conftest import make_staff
from tests.factories import PlayerFactory

WORKERS = 8
TRANSACTIONS = 500


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_cashiers_with_retries_keep_ledger_exact__CAG_1_CAG_2():
    from cardroom.roles import Role

    cashiers = [make_staff(f"cc{i}", Role.CASHIER) for i in range(WORKERS)]
    shifts = [shift_open(actor=c, opening_float_cents=1_000_000) for c in cashiers]
    players = [PlayerFactory(id_verified_at="2026-01-01T00:00:00Z") for _ in range(20)]
    rng = random.Random(7)
    plan = []  # (worker, key, kind, player, cents)
    for n in range(TRANSACTIONS):
        worker = n % WORKERS
        plan.append(
            (
                worker,
                f"conc-{n:05d}",
                rng.choice(["in", "in", "out"]),
                rng.choice(players),
                rng.randint(1, 400) * 50,
            )
        )
    # Every request is sent once or twice; retries race the original from another thread.
    sends = [p for p in plan for _ in range(rng.choice([1, 1, 2, 3]))]
    rng.shuffle(sends)
    errors: list[Exception] = []
    lock = threading.Lock()
    queue = list(sends)

    def run():
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    worker, key, kind, player, cents = queue.pop()
                move = cash_buy_in if kind == "in" else cash_out
                try:
                    # The one idempotency mechanism every money service wraps its work in.
                    run_once(
                        key=key,
                        operation=f"test.{kind}",
                        request={"worker": worker, "player": player.pk, "cents": cents},
                        run=partial(
                            move,
                            actor=cashiers[worker],
                            shift=shifts[worker],
                            player=player,
                            amount_cents=cents,
                            reference="session:1",
                            idempotency_key=key,
                        ),
                        load=lambda pk: CashierTransaction.objects.get(pk=pk),
                    )
                except DomainError as error:
                    if error.code != "insufficient_balance":
                        raise
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert ledger_total() == 0
    assert not unbalanced_postings().exists()
    keys = CashierTransaction.objects.values("idempotency_key").annotate(n=Count("id"))
    assert all(row["n"] == 1 for row in keys)
    made = set(CashierTransaction.objects.values_list("idempotency_key", flat=True))
    assert made <= {p[1] for p in plan}
    for shift in shifts:
        moved = Entry.objects.filter(account=shift.drawer).aggregate(total=Sum("amount_cents"))["total"]
        assert drawer_expected(shift=shift) == moved
        ins = CashierTransaction.objects.filter(shift=shift, kind="cash_buy_in").aggregate(
            t=Sum("amount_cents")
        )
        outs = CashierTransaction.objects.filter(shift=shift, kind="cash_out").aggregate(
            t=Sum("amount_cents")
        )
        assert moved == 1_000_000 + (ins["t"] or 0) - (outs["t"] or 0)
    numbers = sorted(CashierTransaction.objects.values_list("receipt_number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert IdempotentRequest.objects.count() == CashierTransaction.objects.count()
    assert connection.vendor == "postgresql"
