"""`manage.py check_books`: every reconciliation of the books, with its figures; exits non-zero
on any difference (CAG-1, CAG-4, CAG-6). Each venue's books are checked in turn, then the
operator's (every venue together, VEN-1); `--venue <address name>` checks one venue's. A run of
every venue is recorded for /metrics (OPS-2)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cardroom.money import format_eur
from cardroom.venues import venue_by_slug
from ops.services import books_check_record
from reports.selectors.books import books_by_venue, venue_books_check


def _figure(value: int, unit: str) -> str:
    return format_eur(value) if unit == "cents" else f"{value} {unit}"


class Command(BaseCommand):
    help = (
        "Reconcile the ledger with the games' records, each venue's and the operator's; "
        "exit 1 on any difference."
    )

    def add_arguments(self, parser):
        parser.add_argument("--venue", help="check only this venue's books (its address name)")

    def handle(self, *args, **options):
        if options["venue"]:
            venue = venue_by_slug(options["venue"])
            if venue is None:
                raise CommandError(f"No venue has the address name {options['venue']!r}.")
            sections = [venue_books_check(venue)]
        else:
            sections = books_by_venue()
        checks, failed = 0, []
        for books in sections:
            title = f"{books.venue.name} ({books.venue.slug})" if books.venue else "Operator (every venue)"
            self.stdout.write(f"== {title}")
            for check in books.checks:
                mark = "ok  " if check.ok else "DIFF"
                records, ledger = _figure(check.expected, check.unit), _figure(check.actual, check.unit)
                line = f"{mark} {check.name}: records {records}, books {ledger}"
                if not check.ok:
                    line += f", difference {_figure(check.difference, check.unit)}"
                self.stdout.write(line)
            wrong = books.problems
            checks += len(books.checks)
            if wrong:
                failed.append(f"{title}: {len(wrong)} of {len(books.checks)}")
                self.stdout.write(f"{title}: {len(wrong)} of {len(books.checks)} checks found a difference.")
            else:
                self.stdout.write(f"{title}: all {len(books.checks)} checks agree.")
        differences = sum(len(books.problems) for books in sections)
        if not options["venue"]:  # /metrics reads the last check of the whole installation
            books_check_record(checks=checks, differences=differences, now=timezone.now())
        if failed:
            raise CommandError(f"{differences} of {checks} checks found a difference ({'; '.join(failed)}).")
        self.stdout.write(f"All {checks} checks agree.")
