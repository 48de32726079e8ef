"""`manage.py identities_destroy`: destroy now the sealed identities of erased players whose
retention is over (GDP-1). The beat does the same every hour; this is for an operator who wants
it done and seen at once."""

from django.core.management.base import BaseCommand

from players.services.data_rights import identities_destroy


class Command(BaseCommand):
    help = "Destroy the sealed identities of erased players whose retention is over (GDP-1)."

    def handle(self, *args, **options):
        destroyed = identities_destroy()
        self.stdout.write(f"Sealed identities destroyed: {destroyed}")
