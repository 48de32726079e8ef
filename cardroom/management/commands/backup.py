"""`manage.py backup [--dir DIR]`: a consistent backup of the whole database while the room runs
(OPS-1): pg_dump's custom format on PostgreSQL, SQLite's online backup on the embedded default.
Prints the file, its size and its SHA-256 (also written beside it as `<file>.sha256`)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cardroom.backups import backup_take
from cardroom.errors import DomainError
from cardroom.selectors import venue_zone

DEFAULT_DIRECTORY = Path(settings.BASE_DIR) / "var" / "backups"


def size_text(size: int) -> str:
    for unit, factor in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.1f} {unit} ({size:,} bytes)"
    return f"{size:,} bytes"


class Command(BaseCommand):
    help = "Write a consistent backup of the database, named for the venue and the time, while the room runs."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dir",
            default=str(DEFAULT_DIRECTORY),
            help=f"the folder the backup is written to (default: {DEFAULT_DIRECTORY})",
        )

    def handle(self, *args, dir: str, **options):
        try:
            backup = backup_take(directory=Path(dir))
        except DomainError as error:
            raise CommandError(error.message) from error
        local = timezone.localtime(backup.taken_at, venue_zone())
        self.stdout.write(f"Backup written: {backup.path}")
        self.stdout.write(f"  taken at  {local:%Y-%m-%d %H:%M:%S %Z} (holds everything committed before)")
        self.stdout.write(f"  size      {size_text(backup.size)}")
        self.stdout.write(f"  sha256    {backup.sha256}  (also in {backup.checksum_path.name})")
        self.stdout.write(f"  took      {backup.seconds:.1f} s")
