"""Single-row reads and writes with SQL built once per model, for the busiest requests: every
cashier transaction and every tap of a dealer's tablet.

The ORM compiles each query anew on every call, and on those paths that cost more CPU than the
database spent answering. These helpers behave like the ORM calls they replace (values go through
the same field conversions both ways) but send no model signals; none are connected to the
models they are used on.
"""

from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Field, Model


@dataclass(frozen=True)
class _Shape:
    """How a model's row (all concrete fields, or its pk and some fields) is read."""

    attnames: list[str]
    columns: list[str]
    converters: list[tuple]  # (column expression, [converter, ...]) per column, as the ORM applies them


@cache
def _shape(model: type[Model], fields: tuple[str, ...], vendor: str) -> _Shape:
    meta = model._meta
    chosen = [meta.pk, *(meta.get_field(name) for name in fields)] if fields else list(meta.concrete_fields)
    converters = []
    for field in chosen:
        column = field.get_col(meta.db_table)
        converters.append(
            (column, connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        )
    return _Shape([field.attname for field in chosen], [field.column for field in chosen], converters)


def select_list(model: type[Model], *, alias: str, fields: tuple[str, ...] = ()) -> str:
    """The columns `model_from_row` expects, qualified with a table alias, for a hand-written
    SELECT."""
    quote = connection.ops.quote_name
    return ", ".join(
        f"{alias}.{quote(column)}" for column in _shape(model, fields, connection.vendor).columns
    )


def model_from_row(model: type[Model], values, *, fields: tuple[str, ...] = ()) -> Model:
    """An instance from the values of `select_list(model, fields=...)`, in that order."""
    shape = _shape(model, fields, connection.vendor)
    converted = []
    for value, (column, converters) in zip(values, shape.converters, strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, shape.attnames, converted)


def models_from_row(values, *models: type[Model]) -> list[Model]:
    """One instance per model, from a row of their `select_list`s side by side."""
    instances, start = [], 0
    for model in models:
        end = start + len(_shape(model, (), connection.vendor).columns)
        instances.append(model_from_row(model, values[start:end]))
        start = end
    return instances


@cache
def _lock_sql(model: type[Model], fields: tuple[str, ...], vendor: str) -> str:
    meta, quote = model._meta, connection.ops.quote_name
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""
    return (
        f"SELECT {select_list(model, alias='t', fields=fields)} FROM {quote(meta.db_table)} t "
        f"WHERE t.{quote(meta.pk.column)} = %s{lock}"
    )


def storable_pk(model: type[Model], pk) -> int | None:
    """`pk` as an integer the database can hold, or None when no row can have it. The ORM
    takes "12" for 12 and answers "no such row" for a number beyond the column's range (a URL's
    <int:pk> takes any number); raw SQL would fail on it instead."""
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        return None
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    return pk if (low is None or pk >= low) and (high is None or pk <= high) else None


def lock_row(model: type[Model], pk: int, *, fields: tuple[str, ...] = ()) -> Model | None:
    """`select_for_update(no_key=True).get(pk=pk)` (only `fields`, if given), or None if there is
    no such row. The row stays locked until commit. NO KEY: inserting a row that references the
    locked one takes a KEY SHARE lock, which a plain FOR UPDATE would block. (SQLite locks the
    whole database on write instead.)"""
    pk = storable_pk(model, pk)
    if pk is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(model, fields, connection.vendor), [pk])
        row = cursor.fetchone()
    return None if row is None else model_from_row(model, row, fields=fields)


@cache
def _insert_sql(model: type[Model], vendor: str) -> tuple[list[Field], str]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    return fields, (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}"
    )


def mark_inserted(instance: Model, pk: int) -> None:
    """Record on the instance what `save()` records once its row is inserted."""
    instance.pk = pk
    instance._state.adding, instance._state.db = False, connection.alias


def insert_row(instance: Model) -> Model:
    """`instance.save()` for a new row."""
    fields, sql = _insert_sql(type(instance), connection.vendor)
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        mark_inserted(instance, cursor.fetchone()[0])
    return instance


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[list[Field], str]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return fields, f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


def update_row(instance: Model, *names: str) -> None:
    """`instance.save(update_fields=names)` for a row known to exist (locked by the caller)."""
    fields, sql = _update_sql(type(instance), names, connection.vendor)
    values = [field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, instance.pk])
