"""Database-level guards that the ORM alone cannot give.

Append-only tables (ledger entries, audit records) refuse UPDATE and DELETE with a trigger, on
PostgreSQL and on SQLite alike, and TRUNCATE on PostgreSQL, so not even raw SQL or a bug in a
later migration rewrites history. SQLite rebuilds a table to change its columns and drops its
triggers with it: a migration that changes such a table applies `append_only` again after it
(creating the guard is idempotent).
"""

from django.db import migrations


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
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table};")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only();"
        )
    elif vendor == "sqlite":
        for op in ("UPDATE", "DELETE"):
            schema_editor.execute(
                f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
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


# The session setting that lets a test database be emptied between tests (pytest-django empties
# it with one TRUNCATE of every table). Nothing in the application sets it.
ALLOW_TRUNCATE_SETTING = "cardroom.allow_truncate"


def _create_no_truncate(table: str, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite has no TRUNCATE: its DELETE trigger already covers "DELETE FROM t"
    schema_editor.execute(
        f"""
        CREATE OR REPLACE FUNCTION {table}_no_truncate() RETURNS trigger AS $$
        BEGIN
            IF current_setting('{ALLOW_TRUNCATE_SETTING}', true) IS DISTINCT FROM 'on' THEN
                RAISE EXCEPTION '{table} is append-only: TRUNCATE is refused'
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NULL;
        END;
        $$ LANGUAGE plpgsql;
        """
    )
    schema_editor.execute(
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_no_truncate();"
    )


def _drop_no_truncate(table: str, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};")
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_no_truncate();")


def no_truncate(table: str) -> migrations.RunPython:
    """A migration operation that makes PostgreSQL refuse TRUNCATE on `table` too."""
    return migrations.RunPython(
        lambda apps, schema_editor: _create_no_truncate(table, schema_editor),
        lambda apps, schema_editor: _drop_no_truncate(table, schema_editor),
    )


def _create_redactable(table: str, permit_table: str, fixed: tuple[str, ...], schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    # Names from the migration (never input), as in append_only above.
    permitted = f"EXISTS (SELECT 1 FROM {permit_table} WHERE record_id = OLD.id)"  # noqa: S608
    if vendor == "postgresql":
        unchanged = " AND ".join(f"NEW.{column} IS NOT DISTINCT FROM OLD.{column}" for column in fixed)
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger AS $$
            BEGIN
                IF TG_OP = 'UPDATE' AND {permitted} AND {unchanged} THEN
                    RETURN NEW;
                END IF;
                RAISE EXCEPTION '{table} is append-only: UPDATE and DELETE are refused'
                    USING ERRCODE = 'integrity_constraint_violation';
            END;
            $$ LANGUAGE plpgsql;
            """
        )
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table};")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only();"
        )
    elif vendor == "sqlite":
        unchanged = " AND ".join(f"NEW.{column} IS OLD.{column}" for column in fixed)
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update;")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
            f"WHEN NOT ({permitted} AND {unchanged}) "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END;"
        )
        # DELETE stays refused outright (append_only's trigger is left as it is).
        schema_editor.execute(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END;"
        )
    else:  # pragma: no cover - only the two supported databases
        raise NotImplementedError(vendor)


def _drop_redactable(table: str, schema_editor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update;")
    _create(table, schema_editor)  # back to refusing every UPDATE


def append_only_but_redactable(
    table: str, *, permit_table: str, fixed: tuple[str, ...]
) -> migrations.RunPython:
    """A migration operation that keeps `table` append-only except for one sanctioned path: an
    UPDATE of a row that a row of `permit_table` names (`record_id`), which leaves every column
    in `fixed` as it was. DELETE stays refused. The audit trail uses it so that erasing a player
    (GDP-1) can replace the player's identity in the values the trail displays, while who did
    what, when and to which object can never change (see cardroom.services.audit_records_redact).

    A migration that rebuilds the table on SQLite, or applies `append_only` to it again, must
    apply this operation after it (both put the strict guard back, which refuses redaction too).
    """
    return migrations.RunPython(
        lambda apps, schema_editor: _create_redactable(table, permit_table, fixed, schema_editor),
        lambda apps, schema_editor: _drop_redactable(table, schema_editor),
    )
