"""The room of room.py, built once for the tests of this folder (their modules walk the same
pages, each with its own checks) inside a transaction rolled back when they are done; each test
runs in its own savepoint within it (pytest-django's `db`). The transaction ends whenever the run
leaves the folder (in a random order, or on an xdist worker) and a room is built again on return.
No test here writes outside its savepoint or needs an empty database."""

import pytest
from django.db import transaction

from tests.pages.room import build_room


@pytest.fixture(scope="package")
def _room(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_room()
        transaction.set_rollback(True)


@pytest.fixture
def room(_room, db):
    return _room
