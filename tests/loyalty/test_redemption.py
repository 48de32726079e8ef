"""Comps bought with points (LOY-1): vouchers and tickets with their exact postings, and every
refusal writes nothing."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import AccountKind, Entry, Posting
from cashier.selectors import account_amount
from cashier.services import account_for, ledger_post
from loyalty.models import Lot, Movement
from loyalty.services import loyalty_redeem, loyalty_settings_update, points_award_due
from players.models import Player
from reports.selectors.books import books_problems
from tests.loyalty.conftest import NOW, lots_of, session_played
from tournaments.models import Ticket
from tournaments.services.tickets import ticket_refund


@pytest.fixture
def rich(terms, table, player):
    """Two lots: 100 hours (1,000 points) and then 150 hours (1,500), 25.00 EUR in all."""
    session_played(player, table, NOW - timedelta(days=30), 6000)
    session_played(player, table, NOW - timedelta(days=10), 9000)
    points_award_due(now=NOW)
    assert lots_of(player) == [(1000, 1000, 1000, 1000), (1500, 1500, 1500, 1500)]
    return player


def lines(posting: Posting) -> dict[str, int]:
    return {e.account.kind: e.amount_cents for e in posting.entries.select_related("account")}


def test_voucher_takes_the_oldest_points_and_posts_to_comps_payable_LOY_1(cashier, rich):
    movement = loyalty_redeem(actor=cashier, player=rich, voucher_value="12,50", now=NOW)
    assert (movement.kind, movement.points, movement.value_cents, movement.balance_after) == (
        "voucher",
        -1250,
        -1250,
        1250,
    )
    assert lines(movement.posting) == {"loyalty_liability": 1250, "comps_payable": -1250}
    assert lots_of(rich) == [(1000, 0, 1000, 0), (1500, 1250, 1500, 1250)]
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 1250
    assert account_amount(kind=AccountKind.COMPS_PAYABLE) == 1250
    record = AuditRecord.objects.get(action="loyalty.redeem")
    assert (record.actor_name, record.before, record.after["points"]) == (
        cashier.username,
        {"points": 2500},
        1250,
    )
    assert books_problems() == []


def test_ticket_for_points_posts_to_tickets_outstanding_LOY_1(floor, manager, rich, tournament):
    # 1 point = 0.01 EUR: the 100.00 EUR buy-in costs 10,000 points; make it 2 cents a point.
    loyalty_settings_update(actor=manager, value_cents=2, value_points=1, now=NOW)
    with pytest.raises(DomainError) as refused:
        loyalty_redeem(actor=floor, player=rich, tournament=tournament, now=NOW)
    assert refused.value.code == "not_enough_points" and refused.value.rule == "LOY-1"
    loyalty_settings_update(actor=manager, value_cents=4, value_points=1, now=NOW)
    movement = loyalty_redeem(actor=floor, player=rich, tournament=tournament, now=NOW)
    ticket = Ticket.objects.get()
    assert (ticket.source, ticket.value_cents, ticket.player_id, ticket.status) == (
        "loyalty",
        10_000,
        rich.pk,
        "issued",
    )
    assert (movement.points, movement.balance_after, movement.ticket_id) == (-2500, 0, ticket.pk)
    posting = movement.posting
    # The lots were worth 25.00 EUR when earned; the ticket is worth 100.00: the rest is expense.
    assert lines(posting) == {
        "loyalty_liability": 2500,
        "loyalty_expense": 7500,
        "tickets_outstanding": -10_000,
    }
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 0
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 10_000
    assert books_problems() == []


def test_points_keep_the_worth_they_were_earned_at_LOY_1(cashier, manager, rich):
    loyalty_settings_update(actor=manager, value_cents=1, value_points=2, now=NOW)
    # 5.00 EUR now costs 1,000 points: the first lot, worth the 10.00 EUR it was earned at.
    movement = loyalty_redeem(actor=cashier, player=rich, voucher_value="5,00", now=NOW)
    assert movement.points == -1000
    assert lines(movement.posting) == {
        "loyalty_liability": 1000,
        "loyalty_expense": -500,
        "comps_payable": -500,
    }
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 1500
    assert books_problems() == []


def _nothing_written(before):
    assert (Posting.objects.count(), Entry.objects.count(), Movement.objects.count()) == before
    assert not AuditRecord.objects.filter(action="loyalty.redeem").exists()


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("25,01", "not_enough_points"),
        ("0", "invalid_value"),
        ("-5", "invalid_value"),
        ("abc", "invalid_value"),
        ("", "invalid_value"),
        ("1,500", "not_enough_points"),
    ],
)
def test_refusals_write_nothing_LOY_1(cashier, rich, value, code):
    before = (Posting.objects.count(), Entry.objects.count(), Movement.objects.count())
    left = lots_of(rich)
    with pytest.raises(DomainError) as refused:
        loyalty_redeem(actor=cashier, player=rich, voucher_value=value, now=NOW)
    assert (refused.value.code, refused.value.rule) == (code, "LOY-1")
    _nothing_written(before)
    assert lots_of(rich) == left


def test_value_not_a_whole_number_of_points_refused_LOY_1(cashier, manager, rich):
    loyalty_settings_update(actor=manager, value_cents=3, value_points=1, now=NOW)
    before = (Posting.objects.count(), Entry.objects.count(), Movement.objects.count())
    with pytest.raises(DomainError) as refused:
        loyalty_redeem(actor=cashier, player=rich, voucher_value="10", now=NOW)
    assert refused.value.code == "value_not_whole_points"
    _nothing_written(before)


def test_erased_or_expired_player_refused_LOY_1(cashier, rich):
    before = (Posting.objects.count(), Entry.objects.count(), Movement.objects.count())
    Player.objects.filter(pk=rich.pk).update(erased_at=NOW)
    rich.refresh_from_db()
    with pytest.raises(DomainError) as refused:
        loyalty_redeem(actor=cashier, player=rich, voucher_value="1", now=NOW)
    assert refused.value.code == "player_erased"
    _nothing_written(before)
    Player.objects.filter(pk=rich.pk).update(erased_at=None)
    rich.refresh_from_db()
    points_award_due(now=NOW + timedelta(days=400))  # a year without play: all expired
    before = (Posting.objects.count(), Entry.objects.count(), Movement.objects.count())
    with pytest.raises(DomainError) as refused:
        loyalty_redeem(actor=cashier, player=rich, voucher_value="1", now=NOW + timedelta(days=400))
    assert refused.value.code == "not_enough_points"
    _nothing_written(before)


def test_the_same_key_redeems_once_LOY_1(cashier, rich):
    first = loyalty_redeem(
        actor=cashier, player=rich, voucher_value="2", idempotency_key="loy-key-0001", now=NOW
    )
    again = loyalty_redeem(
        actor=cashier, player=rich, voucher_value="2", idempotency_key="loy-key-0001", now=NOW
    )
    assert again.pk == first.pk
    assert Movement.objects.filter(kind="voucher").count() == 1


def test_books_check_fails_when_the_liability_is_tampered_LOY_1(cashier, rich):
    loyalty_redeem(actor=cashier, player=rich, voucher_value="3", now=NOW)
    assert books_problems() == []
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.LOYALTY_EXPENSE), 5),
            (account_for(kind=AccountKind.LOYALTY_LIABILITY), -5),
        ],
        description="A liability booked with no points behind it",
        now=NOW,
    )
    problems = books_problems()
    assert [(p.name, p.expected, p.actual) for p in problems] == [
        ("Loyalty points outstanding = the worth left in the players' points", 2200, 2205)
    ]
    Lot.objects.filter(pk=Lot.objects.first().pk)  # the lots themselves were not touched


def test_a_ticket_bought_with_points_is_not_refunded_in_cash_LOY_1(floor, manager, rich, tournament):
    loyalty_settings_update(actor=manager, value_cents=4, value_points=1, now=NOW)
    loyalty_redeem(actor=floor, player=rich, tournament=tournament, now=NOW)
    ticket = Ticket.objects.get()
    postings, audits = Posting.objects.count(), AuditRecord.objects.count()
    with pytest.raises(DomainError) as refused:
        ticket_refund(actor=manager, ticket=ticket, reason="He asked for the money", now=NOW)
    assert (refused.value.code, refused.value.rule, refused.value.status_code) == (
        "loyalty_ticket_not_refunded",
        "LOY-1",
        409,
    )
    ticket.refresh_from_db()
    assert ticket.status == "issued"
    assert (Posting.objects.count(), AuditRecord.objects.count()) == (postings, audits)
    # The tickets page offers no refund it would refuse: the button is greyed out with the reason.
    client = Client()
    client.force_login(manager)
    page = client.get(reverse("tournaments:tickets", args=[tournament.pk])).content.decode()
    assert f'aria-describedby="refund-why-{ticket.pk}"' in page
    assert "it is not refunded in cash" in page
    assert f'id="refund-reason-{ticket.pk}"' not in page
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 10_000
    assert books_problems() == []
