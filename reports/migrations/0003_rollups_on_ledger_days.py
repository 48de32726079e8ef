# The accounts' day totals move to the ledger (cashier.AccountDayTotal, on cashier.LedgerDay), so
# the ledger never calls the reports; the reports' rollups now rest on the ledger's closed day and
# go with it when a posting reopens the day.

import django.db.models.deletion
from django.db import migrations, models


def delete_rollups(apps, schema_editor):
    """Rollups are a cache of the raw records: emptied here, because they cannot name the
    ledger's closed day they were built on, and built again by the beat task (or `manage.py
    rollup_rebuild`)."""
    for name in ("TableDayTotal", "TournamentDayTotal", "PlayerDayTotal", "RolledUpDay"):
        apps.get_model("reports", name).objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('cashier', '0005_ledger_days'),
        ('reports', '0002_table_tournament_player_days'),
    ]

    operations = [
        migrations.RunPython(delete_rollups, migrations.RunPython.noop),
        migrations.DeleteModel(
            name='AccountDayTotal',
        ),
        migrations.AddField(
            model_name='rolledupday',
            name='ledger_day',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cashier.ledgerday'),
        ),
        migrations.AddField(
            model_name='playerdaytotal',
            name='rolled_day',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='reports.rolledupday'),
        ),
        migrations.AddField(
            model_name='tabledaytotal',
            name='rolled_day',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='reports.rolledupday'),
        ),
        migrations.AddField(
            model_name='tournamentdaytotal',
            name='rolled_day',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='reports.rolledupday'),
        ),
    ]
