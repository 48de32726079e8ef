"""The house's two default chip sets (CHP-1, CHP-2), and the chip ledger made append-only.

The data is written out here, not imported from the app, so this migration stays the same
whatever the app's code becomes. Cash chips are valued in cents, tournament chips in chips.
"""

from django.db import migrations

from cardroom.migration_operations import append_only, no_truncate

CASH = [
    (50, "White", "#f4f4f4"),
    (100, "Grey", "#9a9a9a"),
    (200, "Yellow", "#f2c230"),
    (500, "Red", "#c8202f"),
    (2500, "Green", "#1b7f3b"),
    (10000, "Black", "#1d1d1d"),
    (50000, "Purple", "#6b2c91"),
]
TOURNAMENT = [
    (25, "Green", "#1b7f3b"),
    (100, "Black", "#1d1d1d"),
    (500, "Purple", "#6b2c91"),
    (1000, "Yellow", "#f2c230"),
    (5000, "Orange", "#e5731c"),
    (25000, "Blue", "#2456a6"),
]
SETS = [("Cash chips", "cash", CASH), ("Tournament chips", "tournament", TOURNAMENT)]


def create_sets(apps, schema_editor):
    ChipSet = apps.get_model("chips", "ChipSet")
    Denomination = apps.get_model("chips", "Denomination")
    for name, kind, chips in SETS:
        chip_set, _ = ChipSet.objects.get_or_create(name=name, defaults={"kind": kind})
        for value, colour, colour_hex in chips:
            Denomination.objects.get_or_create(
                chip_set=chip_set, value=value, defaults={"colour": colour, "colour_hex": colour_hex}
            )


TABLES = ["chips_chipposting", "chips_chipentry", "chips_chipcount", "chips_chipcountline"]


class Migration(migrations.Migration):
    dependencies = [("chips", "0001_initial")]

    operations = [
        migrations.RunPython(create_sets, migrations.RunPython.noop),
        *[append_only(table) for table in TABLES],
        *[no_truncate(table) for table in TABLES],
    ]
