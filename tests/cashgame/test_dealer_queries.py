"""The dealer's taps through the API keep a pinned number of queries (Zulip's
assert_database_query_count): a lock, a read or a write more on the busiest path fails here,
not on a busy night. The hand before the measured ones warms the caches (roles, and the ledger
accounts, which are kept once their transaction commits: the warm-up's counts as committed, as a
running room's have).

Ceilings (issue 24): a deal at most 6 statements, a flop 5, a hand's end 10. The counts are
exact, each with the transaction's savepoint and its release (BEGIN and COMMIT in production)."""

import pytest

from cashgame.models import Hand, HandStatus
from cashgame.services.sessions import session_state_change
from tests.cashgame.conftest import seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def sessions(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


@pytest.fixture
def dealer(api, floor, table12, sessions, django_capture_on_commit_callbacks):
    client = api(floor)
    client.get("/api/cashgame/tables/")  # the user's roles

    def tap(url: str, body: dict | None = None) -> dict:
        response = client.post(url, body or {})
        assert response.status_code in (200, 201), response.json()
        return response.json()

    def start() -> int:
        body = {"seats": [1, 2, 3, 4], "button_seat": 1}
        return tap(f"/api/cashgame/tables/{table12.pk}/hands/", body)["id"]

    with django_capture_on_commit_callbacks(execute=True):  # the rake, jackpot and chips accounts
        first = start()
        tap(f"/api/cashgame/hands/{first}/flop/")
        tap(f"/api/cashgame/hands/{first}/end/", {"pot_cents": 22_000})
    return tap, start


# The table locked, the sessions dealt in, the table's count raised, the hand (4).
DEAL_QUERIES = 6
# The hand locked and updated (2).
FLOP_QUERIES = 4
# The hand locked with its table, the closed gaming days and the chips in play at the table
# (CSH-4: no pot beyond them), the rake's and drop's posting and its entries (RAK-1, JKP-2), the
# hand and the table updated, the audit record (8), and the high-hand promotions that cover the
# game (LOY-2: none here, so no drop).
HAND_END_QUERIES = 11


def test_dealer_taps_through_the_api_have_pinned_queries(dealer, django_assert_num_queries):
    tap, start = dealer
    with django_assert_num_queries(DEAL_QUERIES):
        hand_id = start()
    with django_assert_num_queries(FLOP_QUERIES):
        tap(f"/api/cashgame/hands/{hand_id}/flop/")
    with django_assert_num_queries(HAND_END_QUERIES):
        ended = tap(f"/api/cashgame/hands/{hand_id}/end/", {"pot_cents": 22_000})
    assert (ended["status"], ended["rake_cents"], ended["jackpot_drop_cents"]) == ("ended", 500, 100)
    with django_assert_num_queries(DEAL_QUERIES):
        voided_id = start()
    with django_assert_num_queries(7):
        voided = tap(f"/api/cashgame/hands/{voided_id}/void/", {"reason": "misdeal"})
    assert voided["status"] == "voided"
    assert list(Hand.objects.order_by("number").values_list("status", flat=True)) == [
        HandStatus.ENDED,
        HandStatus.ENDED,
        HandStatus.VOIDED,
    ]


def test_side_pots_and_dead_money_cost_one_query_at_most__RAK_6_POT_4(
    dealer, floor, sessions, django_assert_num_queries
):
    tap, start = dealer
    hand_id = start()
    tap(f"/api/cashgame/hands/{hand_id}/flop/")
    with django_assert_num_queries(HAND_END_QUERIES):  # the same as one pot
        tap(f"/api/cashgame/hands/{hand_id}/end/", {"pot_cents": 28_000, "side_pots_cents": [8_000, 20_000]})
    for action in ("sit_out", "missed_blinds", "posted"):
        session_state_change(actor=floor, session=sessions[3], action=action)
    with django_assert_num_queries(DEAL_QUERIES):
        hand_id = start()
    tap(f"/api/cashgame/hands/{hand_id}/flop/")
    with django_assert_num_queries(HAND_END_QUERIES + 1):  # and one UPDATE that spends the dead blind
        ended = tap(
            f"/api/cashgame/hands/{hand_id}/end/", {"pot_cents": 28_100, "side_pots_cents": [8_100, 20_000]}
        )
    assert (ended["dead_cents"], [pot["rake_cents"] for pot in ended["pots"]]) == (100, [100, 400])
