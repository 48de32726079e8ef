"""Satellites and tickets (SER-1): seats and the cash remainder, tickets issued as the seats'
prizes, used at the cage once, granted, refunded and expired; each refusal writes nothing; the
books agree at the end."""

import random
from datetime import timedelta

import pytest
from django.conf import settings

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.venues import venue_activate
from cashier.models import AccountKind, CashierTransaction, PaymentMethod, Posting
from cashier.selectors import account_amount, drawer_expected
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tests.two_venues import venue_two
from tournaments.models import Entry, PayoutPlace, Ticket, TicketStatus
from tournaments.services.payouts import entry_bust, prize_pay
from tournaments.services.registration import entry_withdraw, tournament_start
from tournaments.services.tickets import (
    ticket_expire,
    ticket_grant,
    ticket_refund,
    ticket_refund_pay,
    tickets_expire_due,
    tournament_satellite_set,
)
from tournaments.tasks import tickets_expire

S = timedelta(seconds=1)


def written() -> tuple[int, int, int, int, int]:
    return (
        Posting.all_venues.count(),
        CashierTransaction.all_venues.count(),
        Entry.all_venues.count(),
        Ticket.all_venues.count(),
        AuditRecord.all_venues.count(),
    )


def refused(call, code: str) -> DomainError:
    before = written()
    with pytest.raises(DomainError) as error:
        call()
    assert error.value.code == code
    assert error.value.rule == "SER-1"
    assert written() == before
    return error.value


@pytest.fixture
def target(make_tournament):
    # Buy-in 300.00 = 270.00 prize + 30.00 fee.
    return make_tournament(name="Main Event", prize_cents=27_000, fee_cents=3_000)


@pytest.fixture
def play_satellite(floor, cashier, shift, make_tournament, register, target):
    """play_satellite(entries, prize_cents) -> (satellite, entries by finishing place): a
    satellite of `target` played to the end, each entry busting alone, the first entry last."""

    def play(count: int, prize_cents: int):
        satellite = make_tournament(name="Satellite", prize_cents=prize_cents, fee_cents=1_000)
        tournament_satellite_set(actor=floor, tournament=satellite, target=target, now=T0)
        entries = [register(satellite) for _ in range(count)]
        tournament_start(actor=floor, tournament=satellite, now=T0, rng=random.Random(1))
        for n, entry in enumerate(reversed(entries[1:]), start=1):
            entry_bust(actor=floor, tournament=satellite, busted=[(entry.pk, None)], now=T0 + n * S)
        by_place = {e.finish_place: e for e in Entry.objects.filter(tournament=satellite)}
        return satellite, by_place

    return play


def _places(satellite) -> list[tuple[int, int, bool]]:
    return list(PayoutPlace.objects.filter(tournament=satellite).values_list("place", "amount_cents", "seat"))


def test_pool_1000_three_seats_and_100_to_fourth_SER_1(play_satellite) -> None:
    satellite, _by_place = play_satellite(10, 10_000)  # 10 x 100.00 = 1,000.00 prize pool
    assert _places(satellite) == [(1, 30_000, True), (2, 30_000, True), (3, 30_000, True), (4, 10_000, False)]


def test_pool_exactly_600_two_seats_no_cash_SER_1(play_satellite) -> None:
    satellite, _by_place = play_satellite(4, 15_000)  # 4 x 150.00 = 600.00
    assert _places(satellite) == [(1, 30_000, True), (2, 30_000, True)]


def test_pool_250_below_buy_in_all_cash_to_first_SER_1(play_satellite, cashier, shift) -> None:
    satellite, by_place = play_satellite(5, 5_000)  # 5 x 50.00 = 250.00 < 300.00
    assert _places(satellite) == [(1, 25_000, False)]
    paid = prize_pay(actor=cashier, entry=by_place[1], shift=shift, idempotency_key=key(), now=T0 + 9 * S)
    assert paid.prize_transaction.method == PaymentMethod.CASH
    assert Ticket.objects.count() == 0
    assert books_problems() == []


def test_satellite_winners_use_their_tickets_at_the_cage_SER_1(
    play_satellite, cashier, shift, register, target
) -> None:
    satellite, by_place = play_satellite(10, 10_000)
    for place in (4, 3, 2, 1):
        prize_pay(actor=cashier, entry=by_place[place], shift=shift, idempotency_key=key(), now=T0 + 20 * S)
    receipts = {
        e.finish_place: e.prize_transaction
        for e in Entry.objects.filter(tournament=satellite, finish_place__lte=4)
    }
    assert [(receipts[p].method, receipts[p].amount_cents) for p in (1, 2, 3, 4)] == [
        ("ticket", 30_000),
        ("ticket", 30_000),
        ("ticket", 30_000),
        ("cash", 10_000),
    ]
    tickets = list(Ticket.objects.order_by("satellite_place"))
    assert [(t.satellite_place, t.player_id, t.tournament_id, t.value_cents, t.status) for t in tickets] == [
        (p, by_place[p].player_id, target.pk, 30_000, "issued") for p in (1, 2, 3)
    ]
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 90_000
    assert account_amount(kind=AccountKind.PRIZE_POOL, owner=f"tournament:{satellite.pk}") == 0
    assert books_problems() == []

    entries = [register(target, player=t.player, ticket_id=t.pk, now=T0 + 30 * S) for t in tickets]
    register(target, now=T0 + 31 * S)  # one player pays cash
    for entry in entries:
        record = entry.cashier_transaction
        assert (record.method, record.amount_cents, record.kind) == ("ticket", 30_000, "tournament_buy_in")
    assert set(Ticket.objects.values_list("status", flat=True)) == {TicketStatus.USED}
    assert {t.used_by_id for t in Ticket.objects.all()} == {e.pk for e in entries}
    # Drawer: 1,000.00 float + 10 x 110.00 in - 100.00 cash prize + 300.00 cash buy-in.
    assert drawer_expected(shift=shift) == 100_000 + 110_000 - 10_000 + 30_000
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert account_amount(kind=AccountKind.PRIZE_POOL, owner=f"tournament:{target.pk}") == 4 * 27_000
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 10 * 1_000 + 4 * 3_000
    assert books_problems() == []


@pytest.fixture
def granted(manager, target):
    def grant(player=None, **kwargs):
        kwargs.setdefault("now", T0)
        return ticket_grant(
            actor=manager,
            tournament=target,
            player=player or PlayerFactory(),
            reason="Loyal player",
            **kwargs,
        )

    return grant


def test_grant_books_promotion_expense_and_audits_SER_1(granted, register, target) -> None:
    ticket = granted()
    assert (ticket.value_cents, ticket.source, ticket.status) == (30_000, "grant", "issued")
    assert account_amount(kind=AccountKind.PROMOTION_EXPENSE) == 30_000
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 30_000
    assert AuditRecord.objects.filter(action="ticket.grant", object_id=str(ticket.pk)).count() == 1
    register(target, player=ticket.player, ticket_id=ticket.pk)
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert books_problems() == []


def test_ticket_used_twice_refused_SER_1(granted, register, target) -> None:
    ticket = granted()
    entry = register(target, player=ticket.player, ticket_id=ticket.pk)
    Entry.objects.filter(pk=entry.pk).update(status="busted")  # out: a re-entry would be allowed
    target.max_reentries = 1
    target.save(update_fields=["max_reentries"])
    error = refused(lambda: register(target, player=ticket.player, ticket_id=ticket.pk), "ticket_used")
    assert "one entry only" in error.message


def test_ticket_for_another_tournament_refused_SER_1(granted, register, make_tournament) -> None:
    ticket = granted()
    other = make_tournament(name="Turbo", prize_cents=27_000, fee_cents=3_000)
    error = refused(
        lambda: register(other, player=ticket.player, ticket_id=ticket.pk), "ticket_other_tournament"
    )
    assert "Main Event" in error.message


def test_ticket_of_another_player_refused_SER_1(granted, register, target) -> None:
    ticket = granted()
    refused(lambda: register(target, player=PlayerFactory(), ticket_id=ticket.pk), "ticket_other_player")


def test_expired_ticket_refused_then_swept_SER_1(granted, register, target) -> None:
    ticket = granted(expires_at=T0 + timedelta(hours=1))
    later = T0 + timedelta(hours=2)
    refused(lambda: register(target, player=ticket.player, ticket_id=ticket.pk, now=later), "ticket_expired")
    assert tickets_expire_due(now=later) == 1
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.EXPIRED
    # A granted ticket's expiry takes its cost back from promotion expense.
    assert account_amount(kind=AccountKind.PROMOTION_EXPENSE) == 0
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    refused(
        lambda: register(target, player=ticket.player, ticket_id=ticket.pk, now=later), "ticket_not_valid"
    )
    assert books_problems() == []


def test_the_beat_closes_expired_tickets_SER_1(granted) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["tournaments-tickets-expire"]["task"] == "tournaments.tickets_expire"
    past, future = granted(expires_at=T0 + timedelta(hours=1)), granted(expires_at=None)
    assert tickets_expire() == 1  # T0 is in the past of the real clock the task reads
    past.refresh_from_db()
    future.refresh_from_db()
    assert (past.status, future.status) == (TicketStatus.EXPIRED, TicketStatus.ISSUED)
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 30_000
    assert books_problems() == []


def test_expiry_before_its_time_refused_SER_1(granted, manager) -> None:
    ticket = granted(expires_at=T0 + timedelta(hours=1))
    refused(lambda: ticket_expire(actor=manager, ticket=ticket, now=T0), "ticket_not_due")


def test_refund_with_reason_paid_at_cage_once_SER_1(
    granted, manager, cashier, shift, register, target
) -> None:
    ticket = granted()
    refused(lambda: ticket_refund(actor=manager, ticket=ticket, reason="  ", now=T0), "reason_required")
    ticket_refund(actor=manager, ticket=ticket, reason="Cannot travel to the event", now=T0 + S)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.refund_reason) == ("refunded", "Cannot travel to the event")
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=f"ticket:{ticket.pk}") == 30_000
    refused(lambda: register(target, player=ticket.player, ticket_id=ticket.pk), "ticket_not_valid")
    refused(lambda: ticket_refund(actor=manager, ticket=ticket, reason="again", now=T0), "ticket_not_valid")
    paid = ticket_refund_pay(actor=cashier, ticket=ticket, shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    record = paid.refund_transaction
    assert (record.kind, record.method, record.amount_cents) == ("refund", "cash", 30_000)
    refused(
        lambda: ticket_refund_pay(actor=cashier, ticket=ticket, shift=shift, idempotency_key=key(), now=T0),
        "no_refund_due",
    )
    assert drawer_expected(shift=shift) == 100_000 - 30_000
    assert books_problems() == []


def test_grant_without_reason_refused_SER_1(manager, target) -> None:
    refused(
        lambda: ticket_grant(actor=manager, tournament=target, player=PlayerFactory(), reason="", now=T0),
        "reason_required",
    )


def test_withdrawn_ticket_entry_gives_the_ticket_back_SER_1(
    granted, register, cashier, shift, target
) -> None:
    ticket = granted()
    entry = register(target, player=ticket.player, ticket_id=ticket.pk)
    entry_withdraw(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + S)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == ("issued", None)
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 30_000
    assert drawer_expected(shift=shift) == 100_000
    assert books_problems() == []


def test_satellite_of_itself_refused_SER_1(floor, target) -> None:
    refused(
        lambda: tournament_satellite_set(actor=floor, tournament=target, target=target), "satellite_of_itself"
    )


def test_satellite_target_in_another_venue_refused_SER_1(floor, make_tournament, target) -> None:
    two = venue_two()
    with venue_activate(two):
        elsewhere = make_tournament(name="Their Main Event", venue=two)
    refused(
        lambda: tournament_satellite_set(actor=floor, tournament=target, target=elsewhere),
        "satellite_other_venue",
    )


def test_satellite_target_closed_refused_SER_1(floor, make_tournament) -> None:
    finished = make_tournament(name="Yesterday", status="finished")
    satellite = make_tournament(name="Late satellite")
    error = refused(
        lambda: tournament_satellite_set(actor=floor, tournament=satellite, target=finished),
        "satellite_target_closed",
    )
    assert "Yesterday" in error.message


def test_satellite_loop_refused_SER_1(floor, make_tournament, target) -> None:
    satellite = make_tournament(name="Sat")
    tournament_satellite_set(actor=floor, tournament=satellite, target=target, now=T0)
    refused(
        lambda: tournament_satellite_set(actor=floor, tournament=target, target=satellite), "satellite_loop"
    )
