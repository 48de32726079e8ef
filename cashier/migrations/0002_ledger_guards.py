"""The ledger's guards in the database itself (CAG-1): entries, postings and cashier
transactions refuse UPDATE and DELETE; on PostgreSQL a deferred constraint trigger refuses to
commit a posting whose entries do not sum to zero."""

from django.db import migrations

from cardroom.migration_operations import append_only

BALANCE_CHECK = """
CREATE OR REPLACE FUNCTION cashier_entry_posting_balanced() RETURNS trigger AS $$
BEGIN
    IF (SELECT COALESCE(SUM(amount_cents), 0) FROM cashier_entry WHERE posting_id = NEW.posting_id) <> 0 THEN
        RAISE EXCEPTION 'posting does not balance: debits and credits differ (CAG-1)'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER cashier_entry_balanced AFTER INSERT ON cashier_entry
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cashier_entry_posting_balanced();
"""


def create_balance_check(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BALANCE_CHECK)


def drop_balance_check(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS cashier_entry_balanced ON cashier_entry;")
        schema_editor.execute("DROP FUNCTION IF EXISTS cashier_entry_posting_balanced();")


class Migration(migrations.Migration):
    dependencies = [("cashier", "0001_initial")]

    operations = [
        append_only("cashier_entry"),
        append_only("cashier_posting"),
        append_only("cashier_cashiertransaction"),
        migrations.RunPython(create_balance_check, drop_balance_check),
    ]
