"""The room of room.py, built once per test module inside a transaction rolled back when the
module is done; each test runs in its own savepoint within it (pytest-django's `db`)."""

import pytest
from django.db import transaction

from tests.pages.room import build_room


@pytest.fixture(scope="module")
def _room(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_room()
        transaction.set_rollback(True)


@pytest.fixture
def room(_room, db):
    return _room
