"""The generate_history command for the reports benchmark (see bench.history): a Django command
kept out of the apps, run by bench/generate_history.py and by the tests through call_command."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from bench.history import FIVE_YEARS, history_generate
from cardroom.errors import DomainError


class Command(BaseCommand):
    help = (
        "Generate a realistic history into an empty, migrated database: by default five years of a "
        "40-table room (about 20 million hands, 50,000 players, 5,000 tournaments) with its ledger, "
        "then build the report rollups. PostgreSQL for the full size; SQLite only for small runs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=FIVE_YEARS, help="gaming days (default: five years)")
        parser.add_argument(
            "--end", type=date.fromisoformat, help="last gaming day, YYYY-MM-DD (default: yesterday)"
        )
        parser.add_argument(
            "--scale", type=float, default=1.0, help="size of the room (1.0: 40 tables, 50,000 players)"
        )
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--with-triggers",
            action="store_true",
            help="PostgreSQL: keep the ledger's triggers and foreign-key checks on during the load "
            "(slower; keeps the indexes, which the balance check needs)",
        )
        parser.add_argument(
            "--keep-indexes", action="store_true", help="PostgreSQL: load with every index in place"
        )
        parser.add_argument("--no-rollups", action="store_true", help="do not build the report rollups")

    def handle(self, *args, **options):
        try:
            result = history_generate(
                days=options["days"],
                end=options["end"],
                scale=options["scale"],
                seed=options["seed"],
                replica=not options["with_triggers"],
                drop_indexes=not options["keep_indexes"],
                rollups=not options["no_rollups"],
                progress=lambda text: self.stdout.write(text),
            )
        except DomainError as error:
            raise CommandError(str(error)) from None
        out = self.stdout.write
        out(f"history {result.start} - {result.end}: {result.tables} tables, {result.players:,} players")
        for name, value in sorted(result.stats.items()):
            out(f"  {name}: {value:,}")
        for table, rows in sorted(result.rows.items()):
            out(f"  rows {table}: {rows:,}")
        for step, seconds in result.seconds.items():
            out(f"  {step}: {seconds:,.1f} s")
        out(f"  checks: {result.checks}")
        out(self.style.SUCCESS(f"total {sum(result.seconds.values()):,.1f} s"))
