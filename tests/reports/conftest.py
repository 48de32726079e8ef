import pytest
from django.db import transaction

from cardroom.roles import Role
from tests.conftest import make_staff
from tests.reports import known_day


@pytest.fixture(scope="module")
def _known_day(django_db_setup, django_db_blocker):
    """The known day is built once per test module, inside a transaction that is rolled back when
    the module is done. Each test runs in its own savepoint within it (pytest-django's `db`), so
    what one test writes never reaches the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        built = known_day.build(
            manager=make_staff("manager1", Role.MANAGER),
            floor=make_staff("floor1", Role.FLOOR),
            cashier=make_staff("cashier1", Role.CASHIER),
            cashier2=make_staff("cashier2", Role.CASHIER),
        )
        yield built
        transaction.set_rollback(True)


@pytest.fixture
def room(_known_day, db):
    """The known gaming day 2026-11-10 (see known_day.py), built through the services."""
    return _known_day
