"""`manage.py restore FILE`: load a backup into an empty database, then run the books check
(OPS-1). Refused, changing nothing, over a database that holds anything, and for a file that is
not a whole card room backup (wrong kind, checksum not matching, truncated or damaged)."""

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from cardroom.backups import backup_restore
from cardroom.errors import DomainError


class Command(BaseCommand):
    help = "Load a backup (from manage.py backup) into an empty database, then check the books."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file; its .sha256 file is expected beside it")
        parser.add_argument(
            "--without-checksum",
            action="store_true",
            help="restore a file that has no .sha256 file beside it (it is still read whole first)",
        )

    def handle(self, *args, file: str, without_checksum: bool, **options):
        try:
            restored = backup_restore(path=Path(file), checksum_required=not without_checksum)
        except DomainError as error:
            raise CommandError(error.message) from error
        self.stdout.write(f"Restored {restored.path} (sha256 {restored.sha256}).")
        if restored.unknown_migrations:
            raise CommandError(
                f"The backup was taken by a newer version of the card room: its schema has "
                f"{len(restored.unknown_migrations)} migrations this code does not know "
                f"({', '.join(restored.unknown_migrations[:3])}). Install the version that took it, "
                "then run `manage.py check_books`."
            )
        if restored.missing_migrations:
            raise CommandError(
                f"The backup was taken by an older version of the card room: "
                f"{len(restored.missing_migrations)} migrations of this code are not applied to it. "
                "Run `manage.py migrate`, then `manage.py check_books`."
            )
        self.stdout.write("The books check on the restored database:")
        call_command("check_books", stdout=self.stdout, stderr=self.stderr)
