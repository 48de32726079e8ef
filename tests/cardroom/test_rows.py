"""cardroom.rows: the cached-SQL row helpers give exactly what the ORM calls they replace give."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework import serializers

from cardroom.api import FlatSerializer
from cardroom.models import AuditRecord
from cardroom.rows import insert_row, lock_row, model_from_row, models_from_row, select_list, update_row
from cashier.models import Shift
from cashier.services import shift_open
from players.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SHIFT_FIELDS = [field.attname for field in Shift._meta.concrete_fields]


def test_lock_row_reads_every_field_as_the_orm_does(cashier):
    opened = shift_open(actor=cashier, opening_float_cents=123_45, denominations={"5000": 2, "2345": 1})
    locked = lock_row(Shift, opened.pk)
    expected = Shift.objects.get(pk=opened.pk)
    # Datetimes (strings on SQLite), JSON and foreign keys come back converted.
    assert [getattr(locked, name) for name in SHIFT_FIELDS] == [
        getattr(expected, name) for name in SHIFT_FIELDS
    ]
    assert locked.denominations == {"5000": 2, "2345": 1}
    assert locked.opened_at.tzinfo is not None
    assert locked._state.adding is False and locked._state.db == "default"


def test_lock_row_with_fields_defers_the_rest(cashier):
    player = PlayerFactory(first_name="Ján", last_name="Kováč")
    locked = lock_row(Player, player.pk, fields=("first_name", "last_name"))
    assert (locked.pk, locked.full_name) == (player.pk, "Ján Kováč")
    assert locked.get_deferred_fields() >= {"card_number", "id_verified_at"}


def test_lock_row_of_a_missing_row_is_none():
    assert lock_row(Shift, 987_654) is None
    # Beyond the column's range (a URL's <int:pk> takes any number): no row, not a database error.
    assert lock_row(Shift, 38259693895762988722217015889100800) is None
    assert lock_row(Shift, -(2**70)) is None


def test_insert_row_and_update_row_write_what_save_writes(manager):
    at = timezone.now() - timedelta(minutes=5)
    record = insert_row(
        AuditRecord(at=at, actor=manager, actor_name="manager1", action="test.rows", after={"cents": 150})
    )
    stored = AuditRecord.objects.get(pk=record.pk)
    assert (stored.at, stored.actor_id, stored.action, stored.after) == (
        at,
        manager.pk,
        "test.rows",
        {"cents": 150},
    )
    assert record._state.adding is False

    player = PlayerFactory(nickname="")
    player.nickname = "Ace"
    player.notes = "regular"
    update_row(player, "nickname")
    player.refresh_from_db()
    assert (player.nickname, player.notes) == ("Ace", "")  # only the named field is written


def test_models_from_row_splits_a_joined_row(cashier):
    shift = shift_open(actor=cashier, opening_float_cents=0)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {select_list(Shift, alias='s')}, {select_list(type(cashier), alias='u')} "
            "FROM cashier_shift s JOIN auth_user u ON u.id = s.cashier_id WHERE s.id = %s",
            [shift.pk],
        )
        row = cursor.fetchone()
    read_shift, read_user = models_from_row(row, Shift, type(cashier))
    assert (read_shift.pk, read_shift.cashier_id, read_user.pk, read_user.username) == (
        shift.pk,
        cashier.pk,
        cashier.pk,
        cashier.username,
    )
    assert model_from_row(Shift, row[: len(SHIFT_FIELDS)]).pk == shift.pk


def test_flat_serializer_refuses_a_nested_field():
    with pytest.raises(TypeError, match="Pairs is flat, but pairs nest fields"):

        class Pairs(FlatSerializer):
            pairs = serializers.ListField(child=serializers.IntegerField())


def test_flat_serializer_fields_do_not_leak_between_uses():
    class Amount(FlatSerializer):
        cents = serializers.IntegerField(min_value=1)

    first, second = Amount(data={"cents": 5}), Amount(data={"cents": 0})
    assert first.is_valid() and first.validated_data == {"cents": 5}
    assert not second.is_valid() and list(second.errors) == ["cents"]
    assert first.fields["cents"] is not second.fields["cents"]
    assert first.fields["cents"].parent is first and second.fields["cents"].parent is second
