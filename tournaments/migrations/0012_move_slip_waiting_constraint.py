# A migration of its own: on PostgreSQL the constraint cannot be added in the transaction that
# just rewrote the doubled slips (0011).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_move_slip_one_waiting_per_player'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='moveslip',
            constraint=models.UniqueConstraint(condition=models.Q(('confirmed_at__isnull', True), ('replaced_at__isnull', True)), fields=('entry',), name='tournament_one_waiting_slip_per_entry'),
        ),
    ]
