"""Ship three blind structure presets (TRN-7): turbo, regular and deep stack.

Levels are (small blind, big blind, big blind ante or 0, minutes); breaks are ("break",
minutes, colour-up note). The data is written out here, not imported from the app, so this
migration stays the same whatever the app's code becomes.
"""

from django.db import migrations

BREAK = "break"

TURBO = [
    (25, 50, 0, 10),
    (50, 100, 0, 10),
    (75, 150, 0, 10),
    (100, 200, 200, 10),
    (150, 300, 300, 10),
    (200, 400, 400, 10),
    (BREAK, 10, "Colour up the 25 chips"),
    (300, 600, 600, 10),
    (400, 800, 800, 10),
    (500, 1000, 1000, 10),
    (600, 1200, 1200, 10),
    (800, 1600, 1600, 10),
    (1000, 2000, 2000, 10),
    (BREAK, 10, "Colour up the 100 chips"),
    (1500, 3000, 3000, 10),
    (2000, 4000, 4000, 10),
    (3000, 6000, 6000, 10),
    (4000, 8000, 8000, 10),
    (5000, 10000, 10000, 10),
    (6000, 12000, 12000, 10),
    (BREAK, 5, "Colour up the 500 chips"),
    (8000, 16000, 16000, 10),
    (10000, 20000, 20000, 10),
    (15000, 30000, 30000, 10),
    (20000, 40000, 40000, 10),
]

REGULAR = [
    (25, 50, 0, 20),
    (50, 100, 0, 20),
    (75, 150, 0, 20),
    (100, 200, 0, 20),
    (BREAK, 10, ""),
    (100, 200, 200, 20),
    (150, 300, 300, 20),
    (200, 400, 400, 20),
    (300, 600, 600, 20),
    (BREAK, 10, "Colour up the 25 chips"),
    (400, 800, 800, 20),
    (500, 1000, 1000, 20),
    (600, 1200, 1200, 20),
    (800, 1600, 1600, 20),
    (BREAK, 15, "Colour up the 100 chips"),
    (1000, 2000, 2000, 20),
    (1500, 3000, 3000, 20),
    (2000, 4000, 4000, 20),
    (2500, 5000, 5000, 20),
    (BREAK, 10, ""),
    (3000, 6000, 6000, 20),
    (4000, 8000, 8000, 20),
    (5000, 10000, 10000, 20),
    (6000, 12000, 12000, 20),
    (BREAK, 10, "Colour up the 500 chips"),
    (8000, 16000, 16000, 20),
    (10000, 20000, 20000, 20),
    (15000, 30000, 30000, 20),
    (20000, 40000, 40000, 20),
]

DEEP_STACK = [
    (25, 50, 0, 30),
    (50, 100, 0, 30),
    (75, 150, 0, 30),
    (100, 200, 0, 30),
    (100, 200, 200, 30),
    (BREAK, 15, ""),
    (150, 300, 300, 30),
    (200, 400, 400, 30),
    (250, 500, 500, 30),
    (300, 600, 600, 30),
    (400, 800, 800, 30),
    (BREAK, 15, "Colour up the 25 chips"),
    (500, 1000, 1000, 30),
    (600, 1200, 1200, 30),
    (800, 1600, 1600, 30),
    (1000, 2000, 2000, 30),
    (1200, 2400, 2400, 30),
    (BREAK, 15, ""),
    (1500, 3000, 3000, 30),
    (2000, 4000, 4000, 30),
    (2500, 5000, 5000, 30),
    (3000, 6000, 6000, 30),
    (4000, 8000, 8000, 30),
    (BREAK, 15, "Colour up the 100 chips"),
    (5000, 10000, 10000, 30),
    (6000, 12000, 12000, 30),
    (8000, 16000, 16000, 30),
    (10000, 20000, 20000, 30),
    (12000, 24000, 24000, 30),
]

PRESETS = [
    ("Turbo", "10-minute levels, big blind ante from level 4, a break every 6 levels.", TURBO),
    ("Regular", "20-minute levels, big blind ante from level 5, a break every 4 levels.", REGULAR),
    ("Deep stack", "30-minute levels, big blind ante from level 5, a break every 5 levels.", DEEP_STACK),
]


def level_rows(rows):
    for order, row in enumerate(rows, start=1):
        if row[0] == BREAK:
            yield {"order": order, "kind": "break", "minutes": row[1], "note": row[2]}
        else:
            small, big, bb_ante, minutes = row
            yield {
                "order": order,
                "kind": "level",
                "small_blind_chips": small,
                "big_blind_chips": big,
                "ante_chips": bb_ante,
                "big_blind_ante": bb_ante > 0,
                "minutes": minutes,
            }


def add_presets(apps, schema_editor):
    BlindStructure = apps.get_model("tournaments", "BlindStructure")
    StructureLevel = apps.get_model("tournaments", "StructureLevel")
    for name, description, rows in PRESETS:
        structure, created = BlindStructure.objects.get_or_create(name=name, defaults={"description": description})
        if created:
            StructureLevel.objects.bulk_create(StructureLevel(structure=structure, **row) for row in level_rows(rows))


def remove_presets(apps, schema_editor):
    BlindStructure = apps.get_model("tournaments", "BlindStructure")
    BlindStructure.objects.filter(name__in=[name for name, _description, _rows in PRESETS], tournaments=None).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(add_presets, remove_presets)]
