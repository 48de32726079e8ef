"""Two desks use one ticket at the same moment (SER-1): the ticket's row lock lets one through;
the other is refused. PostgreSQL only (SQLite ignores row locks)."""

import pytest

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashier.models import AccountKind, CashierTransaction, Posting
from cashier.selectors import account_amount
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0, TournamentFactory
from tests.tournaments.test_registration_concurrency import _race
from tournaments.models import Entry
from tournaments.services.registration import entry_register
from tournaments.services.tickets import ticket_grant, ticket_refund


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_two_desks_one_ticket_one_entry_SER_1():
    desks = [make_staff(f"ticket-desk{i}", Role.CASHIER) for i in range(2)]
    manager = make_staff("ticket-manager", Role.MANAGER)
    shifts = [shift_open(actor=desk, opening_float_cents=10_000, now=T0) for desk in desks]
    tournament = TournamentFactory(levels=[(25, 50, 600)])
    player = PlayerFactory()
    ticket = ticket_grant(actor=manager, tournament=tournament, player=player, reason="Promotion", now=T0)
    postings = Posting.objects.count()
    results = _race(
        [
            lambda i=i: entry_register(
                actor=desks[i],
                tournament=tournament,
                player=player,
                shift=shifts[i],
                ticket_id=ticket.pk,
                idempotency_key=f"ticket-race-desk-{i}",
                now=T0,
            )
            for i in range(2)
        ]
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    # The tournament row lock orders the desks first: the second finds the player in already.
    assert len(errors) == 1 and errors[0].code == "entry_still_active"
    assert Entry.objects.count() == 1
    assert CashierTransaction.objects.count() == 1
    assert Posting.objects.count() == postings + 1
    ticket.refresh_from_db()
    assert ticket.status == "used" and ticket.used_by_id == Entry.objects.get().pk
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert books_problems() == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_desk_uses_while_manager_refunds_one_wins_SER_1():
    desk = make_staff("ticket-desk-r", Role.CASHIER)
    manager = make_staff("ticket-manager-r", Role.MANAGER)
    shift = shift_open(actor=desk, opening_float_cents=10_000, now=T0)
    tournament = TournamentFactory(levels=[(25, 50, 600)])
    player = PlayerFactory()
    ticket = ticket_grant(actor=manager, tournament=tournament, player=player, reason="Promotion", now=T0)
    results = _race(
        [
            lambda: entry_register(
                actor=desk,
                tournament=tournament,
                player=player,
                shift=shift,
                ticket_id=ticket.pk,
                idempotency_key="ticket-race-use",
                now=T0,
            ),
            lambda: ticket_refund(actor=manager, ticket=ticket, reason="Player asked", now=T0),
        ]
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1 and errors[0].rule == "SER-1"
    ticket.refresh_from_db()
    if ticket.status == "used":
        assert Entry.objects.count() == 1 and errors[0].code == "ticket_not_valid"
    else:
        assert ticket.status == "refunded" and Entry.objects.count() == 0
        assert (
            account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=f"ticket:{ticket.pk}")
            == tournament.buy_in_cents
        )
    assert account_amount(kind=AccountKind.TICKETS_OUTSTANDING) == 0
    assert books_problems() == []
