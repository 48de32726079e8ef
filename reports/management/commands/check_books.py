"""`manage.py check_books`: every reconciliation of the books, with its figures; exits non-zero
on any difference (CAG-1, CAG-4, CAG-6). Each run's result is recorded for /metrics (OPS-2)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cardroom.money import format_eur
from ops.services import books_check_record
from reports.selectors.books import books_check


def _figure(value: int, unit: str) -> str:
    return format_eur(value) if unit == "cents" else f"{value} {unit}"


class Command(BaseCommand):
    help = "Reconcile the ledger with the games' records; exit 1 on any difference."

    def handle(self, *args, **options):
        checks = books_check()
        for check in checks:
            mark = "ok  " if check.ok else "DIFF"
            records, books = _figure(check.expected, check.unit), _figure(check.actual, check.unit)
            line = f"{mark} {check.name}: records {records}, books {books}"
            if not check.ok:
                line += f", difference {_figure(check.difference, check.unit)}"
            self.stdout.write(line)
        wrong = [check for check in checks if not check.ok]
        books_check_record(checks=len(checks), differences=len(wrong), now=timezone.now())
        if wrong:
            raise CommandError(f"{len(wrong)} of {len(checks)} checks found a difference.")
        self.stdout.write(f"All {len(checks)} checks agree.")
