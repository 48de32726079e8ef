"""Fixtures shared by every app's tests: staff of each role, API clients, the venue."""

import os

import pytest
from django.contrib.auth import get_user_model
from django.db.backends.signals import connection_created
from hypothesis import settings
from rest_framework.test import APIClient

from cardroom.migration_operations import ALLOW_TRUNCATE_SETTING
from cardroom.roles import Role
from cardroom.selectors import venue_get
from cardroom.services import staff_role_grant
from tests.isolation import restored

PASSWORD = "correct-horse-battery-staple"

# How many examples each property and state-machine test draws: hypothesis's default of 100 where
# a test does not say (the books machines and the API fuzz test set their own). CI draws them
# twice, on SQLite and on PostgreSQL, each run from its own seed. HYPOTHESIS_PROFILE=deep doubles
# them for a search before a release; `quick` is for a first run while writing a test.
settings.register_profile("deep", max_examples=200)
settings.register_profile("quick", max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql"))
# CI's PostgreSQL pass sets this: a test that touches no database (the pure rules of poker/, a
# template tag) answers the same on any database, and `make test` has just run it.
DATABASE_TESTS_ONLY = os.environ.get("CARDROOM_DATABASE_TESTS_ONLY") == "1"
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


def _allow_test_flush(sender, connection, **kwargs):
    """The ledger and the audit trail refuse TRUNCATE on PostgreSQL; pytest-django empties the
    test database with one, after each transactional test. Only the test process says so."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET {ALLOW_TRUNCATE_SETTING} = 'on'")


connection_created.connect(_allow_test_flush)


def pytest_configure(config):
    """Staff passwords are hashed hundreds of times a run; production's PBKDF2 work factor costs
    about five minutes of it. Tests check who may do what, not the hasher, so a fast one serves."""
    from django.conf import settings as django_settings

    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(config, items):
    """The `long` tests first: pytest-xdist hands tests out in this order, and a test of a
    minute or two handed out last kept one worker busy after the others had finished (in CI's
    PostgreSQL pass, the every-page walk started at 93 % and ran 163 s on its own).
    `postgres` tests need row locks and real concurrency: they run in CI's PostgreSQL pass."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: order kept otherwise
    if DATABASE_TESTS_ONLY:
        database_free = [item for item in items if not _uses_database(item)]
        if database_free:
            config.hook.pytest_deselected(items=database_free)
            items[:] = [item for item in items if _uses_database(item)]
    if ON_POSTGRES:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL); runs in CI's second pass")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def _uses_database(item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & DATABASE_FIXTURES)


@pytest.fixture(autouse=True)
def _as_found(request):
    """Every test leaves the language, the time zone and the caches as it found them
    (tests/isolation.py), so the suite passes in any order and in one process. Tests with a real
    Celery worker keep the shared cache, whose Redis database is also the worker's broker."""
    with restored(shared_cache=request.node.get_closest_marker("redis") is None):
        yield


def make_staff(username: str, *roles: Role):
    """A staff user with these roles; the one already there if a wider fixture (the reports' known
    day, built once per module) made it."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    for role in roles:
        staff_role_grant(user=user, role=role.value)
    return user


@pytest.fixture
def floor(db):
    return make_staff("floor1", Role.FLOOR)


@pytest.fixture
def cashier(db):
    return make_staff("cashier1", Role.CASHIER)


@pytest.fixture
def cashier2(db):
    return make_staff("cashier2", Role.CASHIER)


@pytest.fixture
def manager(db):
    return make_staff("manager1", Role.MANAGER)


@pytest.fixture
def manager2(db):
    return make_staff("manager2", Role.MANAGER)


@pytest.fixture
def administrator(db):
    return make_staff("admin1", Role.ADMINISTRATOR)


@pytest.fixture
def venue(db):
    return venue_get()


def api_client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def api():
    """api(user) -> an APIClient authenticated as that user (None: anonymous)."""
    return api_client_for


@pytest.fixture
def blind_presets(db):
    """The three preset blind structures that migration tournaments 0002 ships. A transactional
    test empties the database after it, migrations' rows included, and whichever test a worker
    runs next may need them."""
    from importlib import import_module

    from django.apps import apps

    import_module("tournaments.migrations.0002_blind_structure_presets").add_presets(apps, None)
