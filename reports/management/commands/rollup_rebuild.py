"""Build the report rollups on demand: the missing ended days, or a range again (after a repair).
Each venue's days are its own (its time zone and gaming-day hour, VEN-1): built venue by venue."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import DomainError
from cardroom.venues import venue_activate, venue_all
from reports.services import rollup_build_missing, rollup_rebuild


class Command(BaseCommand):
    help = "Build the missing report rollups of ended gaming days, or rebuild --start..--end."

    def add_arguments(self, parser):
        parser.add_argument(
            "--start", type=date.fromisoformat, help="first gaming day to rebuild, YYYY-MM-DD"
        )
        parser.add_argument("--end", type=date.fromisoformat, help="last gaming day to rebuild, YYYY-MM-DD")

    def handle(self, *args, **options):
        start, end = options["start"], options["end"]
        if (start is None) != (end is None):
            raise CommandError("Give both --start and --end, or neither (missing days only).")
        for venue in venue_all():
            try:
                with venue_activate(venue):
                    if start is None:
                        built = rollup_build_missing(limit=None)
                    else:
                        built = rollup_rebuild(start=start, end=end)
            except DomainError as error:
                raise CommandError(f"{venue.name}: {error}") from None
            first, last = (built[0], built[-1]) if built else ("-", "-")
            self.stdout.write(
                self.style.SUCCESS(f"{venue.name}: {len(built)} gaming days rolled up ({first} - {last})")
            )
