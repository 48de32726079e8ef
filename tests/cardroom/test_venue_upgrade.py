"""An installation of one room upgrades in place to venues (VEN-1): the migration puts every
existing row into the existing venue, its books agree before and after, its staff keep their roles
there, and the append-only guards stand again after SQLite rebuilt the tables."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE_VENUES = [
    ("cardroom", "0009_identity_retention_audit_redaction"),
    ("cashgame", "0010_sessionevent_chip_posting"),
    ("cashier", "0006_shift_first_count"),
    ("chips", "0003_posting_key_in_one_place"),
    ("dealers", "0002_rotation_row"),
    ("devices", "0001_initial"),
    ("reports", "0003_rollups_on_ledger_days"),
    ("tournaments", "0012_move_slip_waiting_constraint"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


# On PostgreSQL: the test database is emptied after it with TRUNCATE, which the tests may use
# (tests/conftest.py); SQLite's guards refuse the DELETE that would empty its ledger.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_rooms_books_move_into_its_venue_and_still_agree__VEN_1():
    old = migrate(BEFORE_VENUES)
    User = old.get_model("auth", "User")
    Group = old.get_model("auth", "Group")
    cashier = User.objects.create(username="old-cashier")
    cashier.groups.add(Group.objects.get(name="Cashier"))
    Account = old.get_model("cashier", "Account")
    Posting = old.get_model("cashier", "Posting")
    Entry = old.get_model("cashier", "Entry")
    from django.utils import timezone

    now = timezone.now()
    vault = Account.objects.create(kind="vault", owner="", name="Vault")
    variance = Account.objects.create(kind="cash_variance", owner="", name="Cash over / short")
    with transaction.atomic():
        posting = Posting.objects.create(created_at=now, description="a drawer 12.50 EUR over")
        Entry.objects.create(posting=posting, account=vault, amount_cents=1_250, created_at=now)
        Entry.objects.create(posting=posting, account=variance, amount_cents=-1_250, created_at=now)
    Game = old.get_model("cashgame", "Game")
    Game.objects.create(
        name="NLHE 1/2",
        game_type="nlhe",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=30_000,
        created_at=now,
        updated_at=now,
    )

    migrate(latest())

    from cardroom.models import Venue, VenueRole
    from cardroom.venues import venue_cache_clear
    from cashgame.models import Game as GameNow
    from cashier.models import Entry as EntryNow
    from cashier.models import Posting as PostingNow
    from reports.selectors.books import books_problems

    venue_cache_clear()
    (venue,) = Venue.objects.all()
    assert venue.slug == "room"
    assert {row.venue_id for row in EntryNow.all_venues.all()} == {venue.pk}
    assert {row.venue_id for row in PostingNow.all_venues.all()} == {venue.pk}
    assert list(GameNow.all_venues.values_list("venue_id", "name")) == [(venue.pk, "NLHE 1/2")]
    assert list(VenueRole.objects.values_list("user__username", "venue_id", "role")) == [
        ("old-cashier", venue.pk, "Cashier")
    ]
    assert books_problems() == []
    # The ledger is still append-only after the rebuild that added its venue column.
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryNow.all_venues.filter(posting=posting.pk).update(amount_cents=1)
