"""Database-level guards that the ORM alone cannot give, and the fast insert of their rows.

Append-only tables (ledger entries, audit records) refuse UPDATE and DELETE with a trigger, on
PostgreSQL and on SQLite alike, so not even raw SQL or a bug in a later migration rewrites history.
"""

from functools import cache

from django.db import connection, migrations
from django.db.models import Field, Model


@cache
def _insert_sql(model: type[Model], vendor: str) -> tuple[list[Field], str]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    return fields, (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}"
    )


@cache
def _lock_sql(model: type[Model], fields: tuple[str, ...], vendor: str) -> str:
    meta, quote = model._meta, connection.ops.quote_name
    columns = [meta.pk.column, *(meta.get_field(name).column for name in fields)] if fields else ["*"]
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""
    return (
        f"SELECT {', '.join(c if c == '*' else quote(c) for c in columns)} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.pk.column)} = %s{lock}"
    )


def lock_row(model: type[Model], pk: int, *, fields: tuple[str, ...] = ()) -> Model | None:
    """The row with primary key `pk` (only `fields`, if given), locked until commit; None if
    there is none. The same as `select_for_update(no_key=True).get()` with SQL built once per
    model: the money path locks two rows per request, and compiling them cost more CPU than
    the database spent. NO KEY: inserting a row that references the locked one takes a KEY
    SHARE lock, which a plain FOR UPDATE would block. (SQLite locks the whole database on
    write instead.)"""
    found = list(model._default_manager.raw(_lock_sql(model, fields, connection.vendor), [pk]))
    return found[0] if found else None


def insert_row(instance: Model) -> Model:
    """Insert a new row with SQL built once per model, for append-only records that every
    request writes (the audit trail). `save()` compiles its INSERT anew on each call, which
    cost a tenth of a cashier transaction's CPU. It sends no save signals: none are connected
    to these models."""
    fields, sql = _insert_sql(type(instance), connection.vendor)
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, connection.alias
    return instance


def _create(table: str, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger AS $$
            BEGIN
                RAISE EXCEPTION '{table} is append-only: UPDATE and DELETE are refused'
                    USING ERRCODE = 'integrity_constraint_violation';
            END;
            $$ LANGUAGE plpgsql;
            """
        )
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only();"
        )
    elif vendor == "sqlite":
        for op in ("UPDATE", "DELETE"):
            schema_editor.execute(
                f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {op} refused'); END;"
            )
    else:  # pragma: no cover - only the two supported databases
        raise NotImplementedError(vendor)


def _drop(table: str, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table};")
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_append_only();")
    else:
        for op in ("update", "delete"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_{op};")


def append_only(table: str) -> migrations.RunPython:
    """A migration operation that makes `table` append-only."""
    return migrations.RunPython(
        lambda apps, schema_editor: _create(table, schema_editor),
        lambda apps, schema_editor: _drop(table, schema_editor),
    )
