"""Generate the room's history for the reports benchmark (bench/history/) into an empty, migrated
database: by default five years of a 40-table room. bench/reports_history.py runs it. From the
project root:

    DATABASE_URL=postgres://... .venv/bin/python bench/generate_history.py [--days N] [--scale 1.0]
                                                                          [--end YYYY-MM-DD] [--seed N]

`--help` lists every option. The generator is benchmark code: no app imports it, so it is no
`manage.py` command.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    import django

    django.setup()
    from bench.history.command import Command

    # The usage line reads "python bench/generate_history.py [options]".
    Command().run_from_argv(["python", "bench/generate_history.py", *sys.argv[1:]])


if __name__ == "__main__":
    main()
