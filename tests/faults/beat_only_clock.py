"""`python -m tests.faults.beat_only_clock worker ...`: a Celery worker whose tournament clock
sends no ETA messages, so every level rises by the beat's reconciler alone
(tests/faults/test_beat_takeover.py). With them, a level would rise on time whether a beat ran
or not, and a beat's death would show in nothing.

The ETA horizon (tournaments/services/_common.py) is set to nothing: no level end is ever near
enough for a message; the reconciler raises each level at its first run after the level's end.
"""

import os
import sys
from datetime import timedelta


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    import django

    django.setup()
    from tournaments.services import _common, clock

    _common.ETA_HORIZON = clock.ETA_HORIZON = timedelta(0)
    from celery.bin.celery import main as celery

    sys.argv = ["celery", "-A", "cardroom", *sys.argv[1:]]
    celery()


if __name__ == "__main__":
    main()
