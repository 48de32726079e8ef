from django.db import migrations


def create_rotation(apps, schema_editor):
    # The one row every rotation write locks exists before the first writer (no create race).
    apps.get_model("dealers", "Rotation").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("dealers", "0001_initial")]
    operations = [migrations.RunPython(create_rotation, migrations.RunPython.noop)]
