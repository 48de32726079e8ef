"""The cash game's own buy-in door, `POST /api/cashgame/sessions/buy-in/` (CSH-1), keeps a
pinned number of queries, and the same number after the room has a history of transactions
and hands (see tests/queries.py)."""

import pytest

from cashgame.models import Hand
from cashier.models import CashierTransaction
from tests.cashgame.conftest import T0, key
from tests.factories import PlayerFactory
from tests.queries import cash_history, hand_history, hold_caches

pytestmark = pytest.mark.django_db

# Roles, venue, the ledger's accounts and the cash-game chips cached (the warm-up's transaction
# counts as committed, as a running room's have): the shift, table and player the body names
# (3), the transaction's savepoint and its release (2: BEGIN and COMMIT in production), the
# table locked, and the player's and the seat's open sessions in one read (2), the cage's chips
# locked and summed, the chips' posting and its entries in one insert (4: CHP-2, chips follow
# cash), the shift and the player locked (2), the posting, its entries and its audit record (3),
# the receipt counter locked and raised (2), the transaction (1), the session and its event (2),
# the key's record (1). It was 26: the key is no longer read before the work, the posting keeps
# no savepoint of its own, and the player's session and the seat are one read.
SESSION_BUY_IN_QUERIES = 22


def buy_in(client, shift, table, player, seat: int) -> dict:
    response = client.post(
        "/api/cashgame/sessions/buy-in/",
        {
            "shift": shift.pk,
            "table": table.pk,
            "player": player.pk,
            "seat": seat,
            "amount_cents": 20_000,
            "idempotency_key": key(),
        },
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_session_buy_in_queries_are_pinned_and_do_not_grow__CSH_1(
    api,
    cashier,
    floor,
    shift,
    table12,
    monkeypatch,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    hold_caches(monkeypatch)
    client = api(cashier)
    with django_capture_on_commit_callbacks(execute=True):  # as if committed: caches kept
        buy_in(client, shift, table12, PlayerFactory(id_verified_at=T0), seat=1)  # roles, venue, accounts
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(SESSION_BUY_IN_QUERIES):
        buy_in(client, shift, table12, player, seat=2)
    hand_history(floor=floor, cashier=cashier, shift=shift, table=table12, seats=[4, 5], hands=30)
    cash_history(cashier=cashier, floor=floor, shift=shift, table=table12, seats=[6, 7, 8, 9], rounds=10)
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(SESSION_BUY_IN_QUERIES):
        session = buy_in(client, shift, table12, player, seat=3)
    assert (session["seat"], session["buy_in_cents"], session["state"]) == (3, 20_000, "waiting_for_button")
    assert (CashierTransaction.objects.count(), Hand.objects.count()) == (85, 30)
