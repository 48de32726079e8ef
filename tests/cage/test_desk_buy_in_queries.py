"""The cage door's busiest request, a cash-game buy-in through `POST /api/cashier/transactions/`
(CAG-6), keeps a pinned number of queries, and the same number after the room has a history
of transactions and hands (see tests/queries.py)."""

import pytest

from cashgame.models import Hand
from cashier.models import CashierTransaction
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory
from tests.queries import cash_history, hand_history, hold_caches

pytestmark = pytest.mark.django_db

# Roles, venue, the ledger's accounts and the cash-game chips cached (the warm-up's transaction
# counts as committed, as a running room's have): the player (1: PLY-1 is checked and a refusal
# logged before the transaction), the transaction's savepoint and its release (2: in production
# BEGIN and COMMIT), the table locked, and the player's and the seat's open sessions in one read
# (2), the cage's chips locked and summed, the chips' posting and its entries in one insert (4:
# CHP-2, chips follow cash), the shift and the player locked (2: CAG-3, and PLY-1 and PLY-2 under
# the player's lock), the posting, its entries and its audit record (3), the receipt counter
# locked and raised (2: CAG-4, no gaps), the transaction (1), the session and its event (2), the
# key's record (1), and the answer's transaction with its cashier and player (1).
# It was 25: the key is no longer read before the work (a repeat finds it after its refusal),
# the posting keeps no savepoint of its own inside the request's transaction, and the player's
# session and the seat are one read. The ceiling of issue 24 (16) is not reached: see
# bench/README.md, "Statements per request". And, once it has committed, the desk's receipt
# printer (1: CAG-4; the receipt is read for the paper only where there is one).
CAGE_BUY_IN_QUERIES = 22


def buy_in(client, shift, table, seat: int, player=None) -> dict:
    response = client.post(
        "/api/cashier/transactions/",
        {
            "kind": "cash_buy_in",
            "shift": shift.pk,
            "player": (player or PlayerFactory(id_verified_at=T0)).pk,
            "table": table.pk,
            "seat": seat,
            "amount_cents": 20_000,
        },
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_cage_cash_buy_in_queries_are_pinned_and_do_not_grow__CAG_6(
    api,
    cashier,
    floor,
    shift,
    table,
    monkeypatch,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    hold_caches(monkeypatch)
    client = api(cashier)
    with django_capture_on_commit_callbacks(execute=True):  # as if committed: caches kept
        buy_in(client, shift, table, seat=1)  # reads the roles, the venue and the accounts once
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(CAGE_BUY_IN_QUERIES), django_capture_on_commit_callbacks(execute=True):
        buy_in(client, shift, table, seat=2, player=player)
    hand_history(floor=floor, cashier=cashier, shift=shift, table=table, seats=[4, 5], hands=30)
    cash_history(cashier=cashier, floor=floor, shift=shift, table=table, seats=[6, 7, 8, 9], rounds=10)
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(CAGE_BUY_IN_QUERIES), django_capture_on_commit_callbacks(execute=True):
        second = buy_in(client, shift, table, seat=3, player=player)
    assert (second["kind"], second["amount_cents"]) == ("cash_buy_in", 20_000)
    assert (CashierTransaction.objects.count(), Hand.objects.count()) == (85, 30)


# The same caches warm: the player's open session with the player (1: the cage's door finds it),
# the transaction's savepoint and its release (2), the table locked and the session read again
# under its lock (2), the chips at the table summed, the chips' posting and its entries (3:
# CHP-2), the shift and the player locked (2), the table's chips in play locked, the closed
# gaming days and the open entries summed (3: CAG-1, no more paid out than is in play), the
# posting, its entries and its audit record (3), the receipt counter locked and raised (2), the
# transaction (1), the session ended and its event (2), the key's record (1), and the answer's
# transaction (1), and once it has committed the desk's receipt printer (1: CAG-4). Issue 24's
# ceiling (18) is not reached: see bench/README.md.
CAGE_CASH_OUT_QUERIES = 24


def test_cage_cash_out_queries_are_pinned_and_do_not_grow__CAG_6(
    api,
    cashier,
    floor,
    shift,
    table,
    monkeypatch,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    hold_caches(monkeypatch)
    client = api(cashier)

    def cash_out(player) -> dict:
        response = client.post(
            "/api/cashier/transactions/",
            {
                "kind": "cash_out",
                "shift": shift.pk,
                "player": player.pk,
                "table": table.pk,
                "amount_cents": 20_000,
            },
            HTTP_IDEMPOTENCY_KEY=key(),
        )
        assert response.status_code == 201, response.json()
        return response.json()

    players = [PlayerFactory(id_verified_at=T0) for _seat in range(3)]
    with django_capture_on_commit_callbacks(execute=True):  # as if committed: caches kept
        for seat, player in enumerate(players, start=1):
            buy_in(client, shift, table, seat=seat, player=player)
        cash_out(players[0])
    with django_assert_num_queries(CAGE_CASH_OUT_QUERIES), django_capture_on_commit_callbacks(execute=True):
        cash_out(players[1])
    hand_history(floor=floor, cashier=cashier, shift=shift, table=table, seats=[4, 5], hands=30)
    cash_history(cashier=cashier, floor=floor, shift=shift, table=table, seats=[6, 7, 8, 9], rounds=10)
    with django_assert_num_queries(CAGE_CASH_OUT_QUERIES), django_capture_on_commit_callbacks(execute=True):
        paid = cash_out(players[2])
    assert (paid["kind"], paid["amount_cents"]) == ("cash_out", 20_000)
