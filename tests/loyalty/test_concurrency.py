"""Two desks spend the same points at the same moment (LOY-1): the player's loyalty lock lets
one through and the other finds the points gone; two sweeps at once award a session once.
PostgreSQL only (SQLite ignores row locks)."""

from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.roles import Role
from cashier.models import AccountKind, Posting
from cashier.selectors import account_amount
from loyalty.models import Lot, Movement
from loyalty.services import loyalty_redeem, loyalty_settings_update, points_award_due
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.loyalty.conftest import NOW, session_played
from tests.tournaments.test_registration_concurrency import _race


def _setup():
    manager = make_staff("loy-manager", Role.MANAGER)
    loyalty_settings_update(actor=manager, default_points_per_hour=10, now=NOW)
    player = PlayerFactory()
    table = make_table(make_game())
    return player, table


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_two_desks_spend_the_same_points_once_LOY_1():
    desks = [make_staff(f"loy-desk{i}", Role.CASHIER) for i in range(2)]
    player, table = _setup()
    session_played(player, table, NOW - timedelta(days=2), 600)
    points_award_due(now=NOW)
    postings = Posting.objects.count()
    results = _race(
        [
            lambda i=i: loyalty_redeem(
                actor=desks[i], player=player, voucher_value="0,80", idempotency_key=f"loy-race-{i}", now=NOW
            )
            for i in range(2)
        ]
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1 and (errors[0].code, errors[0].rule) == ("not_enough_points", "LOY-1")
    assert Movement.objects.filter(kind="voucher").count() == 1
    assert Posting.objects.count() == postings + 1
    assert list(Lot.objects.values_list("points_left", "value_left_cents")) == [(20, 20)]
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 20
    assert books_problems() == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_two_sweeps_at_once_award_once_LOY_1():
    player, table = _setup()
    session_played(player, table, NOW - timedelta(days=2), 90)
    results = _race([lambda: points_award_due(now=NOW), lambda: points_award_due(now=NOW)])
    assert sorted(results) == [0, 1]
    assert list(Lot.objects.values_list("points", flat=True)) == [15]
    assert Movement.objects.count() == 1
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 15
    assert books_problems() == []
