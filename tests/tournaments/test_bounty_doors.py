"""Knock-out bounties (TRN-6) through each door: the desk pays a bounty only for an entry of
its tournament, the API busts with eliminators and pays, the pages do the same, and listing
the awards costs the same queries however many there are."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage.services import DeskRequest, transaction_route
from cardroom.errors import DomainError
from cashier.models import CashierTransaction
from tests.factories import PlayerFactory
from tests.tournaments.bounties import BOUNTY, awards, bust, started
from tests.tournaments.conftest import key
from tournaments.models import BountyAward

pytestmark = pytest.mark.django_db


def test_desk_pays_a_bounty_only_for_an_entry_of_the_tournament__TRN_6_CAG_6(cashier, shift, make_tournament):
    tournament = make_tournament(bounty_cents=BOUNTY)
    player = PlayerFactory()
    with pytest.raises(DomainError) as error:
        transaction_route(
            actor=cashier,
            shift=shift,
            request=DeskRequest(kind="bounty_payout", player_id=player.pk, tournament_id=tournament.pk),
            idempotency_key=key(),
        )
    assert (error.value.code, error.value.rule) == ("no_entry", "CAG-6")
    assert not CashierTransaction.objects.exists()


def test_api_bust_with_eliminators_bounties_and_payout__TRN_6(
    api, floor, cashier, shift, register, make_tournament
):
    tournament, (a, b, c) = started(floor, register, make_tournament, 3, bounty_cents=1_001)
    response = api(floor).post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {"busted": [{"entry": a.pk, "stack_chips": 500, "eliminators": [c.pk, b.pk]}]},
        format="json",
    )
    assert response.status_code == 200
    missing = api(floor).post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {"busted": [{"entry": b.pk, "stack_chips": 500}]},
        format="json",
    )
    assert (missing.status_code, missing.json()["code"], missing.json()["rule"]) == (
        400,
        "eliminator_required",
        "TRN-10",
    )
    listed = api(cashier).get(f"/api/tournaments/{tournament.pk}/bounties/").json()
    assert {k: v for k, v in listed.items() if k != "awards"} == {
        "bounty_cents": 1_001,
        "pool_cents": 3_003,
        "awarded_cents": 1_001,
        "paid_cents": 0,
        "due_cents": 1_001,
        "on_heads_cents": 2_002,
    }
    assert [
        (row["busted_entry_number"], row["entry_number"], row["amount_cents"], row["reason"], row["paid"])
        for row in listed["awards"]
    ] == [(a.number, c.number, 501, "knockout", False), (a.number, b.number, 500, "knockout", False)]
    url = f"/api/tournaments/{tournament.pk}/entries/{c.pk}/bounty/"
    assert api(floor).post(url, {"idempotency_key": "api-bounty-01"}, format="json").status_code == 403
    paid = api(cashier).post(url, {"idempotency_key": "api-bounty-01"}, format="json")
    assert paid.status_code == 201
    record = CashierTransaction.objects.get(kind="bounty_payout")
    award = BountyAward.objects.get(entry=c)
    assert paid.json() == {
        "entry": c.pk,
        "amount_cents": 501,
        "receipt": record.receipt_number,
        "transaction": record.pk,
        "awards": [award.pk],
    }
    again = api(cashier).post(url, {"idempotency_key": "api-bounty-02"}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "no_bounty_due")
    schema = api(floor).get("/api/schema/").content.decode()
    assert "/api/tournaments/{id}/bounties/:" in schema
    assert "/api/tournaments/{id}/entries/{entry_id}/bounty/:" in schema


def test_bounty_list_queries_do_not_grow(api, floor, register, make_tournament):
    tournament, entries = started(floor, register, make_tournament, 6)
    bust(floor, tournament, [entries[0]], {entries[0]: [entries[5]]})
    client = api(floor)
    url = f"/api/tournaments/{tournament.pk}/bounties/"
    client.get(url)  # the user's roles are read once and cached
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for i, entry in enumerate(entries[1:4], start=2):
        bust(floor, tournament, [entry], {entry: [entries[5], entries[4]]}, at=i)
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(url).json()["awards"]) == 7
    assert len(many) == len(few)


def test_pages_bust_with_eliminators_and_cashier_pays_bounties__TRN_6(
    client, floor, cashier, shift, register, make_tournament
):
    tournament, (a, b, c) = started(floor, register, make_tournament, 3)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/bust/").content.decode()
    assert f'name="by_{a.pk}"' in page
    client.post(
        f"/tournaments/{tournament.pk}/bust/",
        {"entry": [a.pk], f"stack_{a.pk}": "500", f"by_{a.pk}": f"{c.number}, {b.number}"},
    )
    assert awards(tournament) == [
        (a.number, c.number, 1_250, "knockout", False),
        (a.number, b.number, 1_250, "knockout", False),
    ]
    refused = client.post(
        f"/tournaments/{tournament.pk}/bust/",
        {"entry": [b.pk], f"stack_{b.pk}": "500", f"by_{b.pk}": "99"},
        follow=True,
    ).content.decode()
    assert "There is no entry number 99." in refused
    page = client.get(f"/tournaments/{tournament.pk}/bust/").content.decode()
    assert "Bounty pool" in page and "25.00" in page
    client.force_login(cashier)
    page = client.get(f"/tournaments/{tournament.pk}/register/").content.decode()
    assert "Bounties due" in page and "12.50" in page
    response = client.post(
        f"/tournaments/{tournament.pk}/entries/{c.pk}/bounty/", {"idempotency_key": "page-bounty-001"}
    )
    record = CashierTransaction.objects.get(kind="bounty_payout")
    assert (response["Location"], record.amount_cents) == (f"/cashier/receipts/{record.pk}/", 1_250)
    assert "Bounty payout" in client.get(response["Location"]).content.decode()
    again = client.post(
        f"/tournaments/{tournament.pk}/entries/{c.pk}/bounty/",
        {"idempotency_key": "page-bounty-002"},
        follow=True,
    ).content.decode()
    assert "no bounty due" in again
    assert CashierTransaction.objects.filter(kind="bounty_payout").count() == 1
