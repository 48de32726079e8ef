"""The default venue, the four role groups (ROL-1) and the append-only audit trail."""

from django.db import migrations

from cardroom.migration_operations import append_only

ROLE_GROUPS = ["Floor", "Cashier", "Manager", "Administrator"]


def create_defaults(apps, schema_editor):
    Venue = apps.get_model("cardroom", "Venue")
    Group = apps.get_model("auth", "Group")
    if not Venue.objects.exists():
        Venue.objects.create(name="Card Room")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(create_defaults, migrations.RunPython.noop),
        append_only("cardroom_auditrecord"),
    ]
