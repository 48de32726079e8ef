"""Demo data of the tournaments app: one tournament on the regular preset, open for registration.

Idempotent: found by its name first, so running the demo again adds nothing.
"""

from datetime import datetime, time, timedelta

from django.db import transaction
from django.utils import timezone

from cardroom.selectors import venue_zone
from tournaments.models import BlindStructure, GuaranteeMode, Tournament
from tournaments.services.tournaments import tournament_create, tournament_open_registration

DEMO_NAME = "Friday Regular 100 EUR"
PRESET = "Regular"


@transaction.atomic
def load(*, actor, stdout) -> None:
    if Tournament.objects.filter(name=DEMO_NAME).exists():
        return
    structure = BlindStructure.objects.filter(name=PRESET).first()
    if structure is None:  # the preset was removed by a manager: nothing to build on
        stdout.write(f"Tournament demo skipped: no “{PRESET}” structure.")
        return
    # Tonight at 19:00 in the venue's zone (tomorrow if that has passed).
    zone = venue_zone()
    local_now = timezone.now().astimezone(zone)
    start = datetime.combine(local_now.date(), time(19, 0), tzinfo=zone)
    if start <= local_now:
        start += timedelta(days=1)
    tournament = tournament_create(
        actor=actor,
        name=DEMO_NAME,
        structure=structure,
        start_at=start,
        prize_cents=9_000,
        fee_cents=1_000,
        starting_stack_chips=20_000,
        late_registration_level=6,
        max_reentries=1,
        guarantee_cents=200_000,
        guarantee_mode=GuaranteeMode.CONDITIONAL,
    )
    tournament_open_registration(actor=actor, tournament=tournament)
    stdout.write(f"Demo tournament “{DEMO_NAME}” open for registration (TV clock: /tv/{tournament.pk}/).")
