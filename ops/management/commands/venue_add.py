"""`manage.py venue_add "Casino Two" casino-two --time-zone Europe/Prague`: a new venue of the
operator, with its own chip sets, whose public pages answer at /v/casino-two/ (VEN-1)."""

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import DomainError
from ops.services import venue_open


class Command(BaseCommand):
    help = "Add a venue (card room) of the operator, with its own chip sets."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The venue's name, as staff and players read it.")
        parser.add_argument("slug", help="Its address name: lowercase letters, digits and dashes.")
        parser.add_argument("--time-zone", default="Europe/Bratislava")

    def handle(self, *args, name, slug, time_zone, **options):
        try:
            venue = venue_open(actor=None, name=name, slug=slug, time_zone=time_zone)
        except DomainError as error:
            raise CommandError(str(error.message)) from None
        self.stdout.write(f"Venue {venue.name} added: its public pages are at /v/{venue.slug}/room/.")
