"""A tournament registration with its buy-in, through the tournament's door
(`POST /api/tournaments/<id>/entries/`) and through the cage's (`POST /api/cashier/transactions/`
with kind tournament_buy_in, CAG-6), keeps a pinned number of queries, and the same number once
the tournament has many more entries (TRN-6)."""

import pytest

from cashier.models import CashierTransaction
from tests.factories import PlayerFactory
from tests.queries import hold_caches
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0

pytestmark = pytest.mark.django_db

# Roles, venue and the drawer's account cached: the player, the tournament and the cashier's
# open shift (3), two savepoints and their releases (4), the
# tournament locked and read again (2), its rules, the player's live entry and his re-entries
# (3), the shift and the player locked (2), the tournament's prize, fee and bounty accounts (3),
# the posting, its entries and its audit record (3), the receipt counter (locked and
# raised: 2), the transaction (1), the next entry number, the entry, its payment and its audit
# record (4), whether tables are drawn yet (1), the key's record (1). It was 32: the key is no
# longer read before the work, and the posting keeps no savepoint of its own.
REGISTER_QUERIES = 29
# The same work through the cage's door (CAG-6): the tournament's own service does it, after a
# warm-up whose commit kept its caches (26); and, once it has committed, the desk's receipt
# printer (1: CAG-4, the receipt is read for paper only where there is one).
CAGE_TOURNAMENT_BUY_IN_QUERIES = 27


def register_via_api(client, tournament, player) -> dict:
    response = client.post(
        f"/api/tournaments/{tournament.pk}/entries/",
        {"player": player.pk, "idempotency_key": key()},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def buy_in_at_the_cage(client, shift, tournament, player) -> dict:
    response = client.post(
        "/api/cashier/transactions/",
        {"kind": "tournament_buy_in", "shift": shift.pk, "player": player.pk, "tournament": tournament.pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_registration_queries_are_pinned_and_do_not_grow__TRN_6(
    api, cashier, shift, make_tournament, register, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament = make_tournament()
    client = api(cashier)
    register_via_api(client, tournament, PlayerFactory(id_verified_at=T0))  # roles, venue, accounts
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(REGISTER_QUERIES):
        register_via_api(client, tournament, player)
    for _ in range(60):
        register(tournament)
    player = PlayerFactory(id_verified_at=T0)
    with django_assert_num_queries(REGISTER_QUERIES):
        entry = register_via_api(client, tournament, player)
    assert (entry["number"], entry["kind"], entry["status"]) == (63, "buy_in", "active")


def test_cage_tournament_buy_in_queries_are_pinned_and_do_not_grow__CAG_6_TRN_6(
    api,
    cashier,
    shift,
    make_tournament,
    register,
    monkeypatch,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    hold_caches(monkeypatch)
    tournament = make_tournament()
    client = api(cashier)
    with django_capture_on_commit_callbacks(execute=True):  # as if committed: caches kept
        buy_in_at_the_cage(client, shift, tournament, PlayerFactory(id_verified_at=T0))
    player = PlayerFactory(id_verified_at=T0)
    with (
        django_assert_num_queries(CAGE_TOURNAMENT_BUY_IN_QUERIES),
        django_capture_on_commit_callbacks(execute=True),
    ):
        buy_in_at_the_cage(client, shift, tournament, player)
    for _ in range(60):
        register(tournament)
    player = PlayerFactory(id_verified_at=T0)
    with (
        django_assert_num_queries(CAGE_TOURNAMENT_BUY_IN_QUERIES),
        django_capture_on_commit_callbacks(execute=True),
    ):
        record = buy_in_at_the_cage(client, shift, tournament, player)
    assert (record["kind"], record["amount_cents"]) == ("tournament_buy_in", 10_000)
    assert CashierTransaction.objects.filter(kind="tournament_buy_in").count() == 63
