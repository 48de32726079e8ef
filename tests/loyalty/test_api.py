"""Loyalty API (LOY-1): a player's points, his history paged in a fixed number of queries, and
a redemption once per Idempotency-Key; a refusal is {"code", "detail", "rule"} and writes nothing."""

from datetime import timedelta

from cashier.models import Posting
from loyalty.models import Movement
from loyalty.services import points_award_due, tier_save
from tests.conftest import api_client_for
from tests.loyalty.conftest import NOW, session_played

# The player, the count and the page of movements (the client's user and roles are cached).
HISTORY_QUERIES = 3


def _earned(player, table, sessions=1):
    for i in range(sessions):
        session_played(player, table, NOW - timedelta(days=10 + i), 600)
    points_award_due(now=NOW)


def test_standing_and_history_LOY_1(cashier, manager, terms, table, player, django_assert_num_queries):
    tier_save(actor=manager, name="Silver", min_points=50, now=NOW)
    _earned(player, table)
    client = api_client_for(cashier)
    body = client.get(f"/api/loyalty/players/{player.pk}/").json()
    assert (body["points"], body["value_cents"], body["tier"], body["next_tier"]) == (
        100,
        100,
        "Silver",
        None,
    )
    client.get(f"/api/loyalty/players/{player.pk}/history/")
    with django_assert_num_queries(HISTORY_QUERIES):
        page = client.get(f"/api/loyalty/players/{player.pk}/history/", {"limit": 2}).json()
    _earned(player, table, sessions=4)
    with django_assert_num_queries(HISTORY_QUERIES):
        page = client.get(f"/api/loyalty/players/{player.pk}/history/", {"limit": 2}).json()
    assert page["count"] == 5 and len(page["results"]) == 2
    assert page["results"][0]["kind"] == "award" and page["results"][0]["points"] == 100


def test_redemption_once_per_key_LOY_1(cashier, terms, table, player):
    _earned(player, table)
    client = api_client_for(cashier)
    url = f"/api/loyalty/players/{player.pk}/redemptions/"
    first = client.post(url, {"voucher_cents": 40}, format="json", HTTP_IDEMPOTENCY_KEY="api-loyalty-0001")
    assert first.status_code == 201
    assert (first.json()["points"], first.json()["balance_after"]) == (-40, 60)
    again = client.post(url, {"voucher_cents": 40}, format="json", HTTP_IDEMPOTENCY_KEY="api-loyalty-0001")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert again["Idempotent-Replayed"] == "true"
    assert Movement.objects.filter(kind="voucher").count() == 1


def test_refusals_are_the_rule_and_write_nothing_LOY_1(cashier, terms, table, player):
    _earned(player, table)
    client = api_client_for(cashier)
    url = f"/api/loyalty/players/{player.pk}/redemptions/"
    postings, movements = Posting.objects.count(), Movement.objects.count()
    too_much = client.post(
        url, {"voucher_cents": 101}, format="json", HTTP_IDEMPOTENCY_KEY="api-loyalty-0002"
    )
    assert too_much.status_code == 409
    assert too_much.json() == {
        "code": "not_enough_points",
        "detail": "1.01 EUR costs 101 points; the player has 100.",
        "rule": "LOY-1",
    }
    zero = client.post(url, {"voucher_cents": 0}, format="json", HTTP_IDEMPOTENCY_KEY="api-loyalty-0003")
    assert (zero.status_code, zero.json()["rule"]) == (400, "LOY-1")
    garbage = client.post(url, {"voucher_cents": "1,500"}, format="json")
    assert garbage.status_code == 400
    assert (Posting.objects.count(), Movement.objects.count()) == (postings, movements)
