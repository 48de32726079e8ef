"""GDP-1: how long an erased player's sealed identity is kept (a venue setting), and the one path
by which the audit trail's displayed values may be rewritten (an erased player's identity
replaced by the pseudonym): a permit per record, checked by the append-only trigger, which still
refuses any change of who, when, what and which object, and every DELETE."""

import django.db.models.deletion
from django.db import migrations, models

from cardroom.migration_operations import append_only_but_redactable

AUDIT_FIXED_COLUMNS = ("id", "at", "actor_id", "actor_name", "action", "object_type", "object_id")


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0008_venue_recount_threshold"),
    ]

    operations = [
        migrations.CreateModel(
            name="AuditRedactionPermit",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "record",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="cardroom.auditrecord"
                    ),
                ),
            ],
            options={
                "verbose_name": "audit redaction permit",
                "verbose_name_plural": "audit redaction permits",
            },
        ),
        migrations.AddField(
            model_name="venue",
            name="identity_retention_years",
            field=models.PositiveSmallIntegerField(
                default=5,
                help_text=(
                    "An erased player's sealed identity and due-diligence record are kept this long after "
                    "their last transaction, then destroyed."
                ),
                verbose_name="identity kept after the last transaction (years)",
            ),
        ),
        migrations.AddConstraint(
            model_name="venue",
            constraint=models.CheckConstraint(
                condition=models.Q(("identity_retention_years__gte", 1), ("identity_retention_years__lte", 30)),
                name="venue_identity_retention_years",
            ),
        ),
        append_only_but_redactable(
            "cardroom_auditrecord", permit_table="cardroom_auditredactionpermit", fixed=AUDIT_FIXED_COLUMNS
        ),
    ]
