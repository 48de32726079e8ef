"""The start with its minimum field (TRN-1) and postponing a start that is short of players."""

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from tournaments import refusals
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import clock, seating
from tournaments.services._common import lock_tournament


@transaction.atomic
def tournament_start(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> Tournament:
    """Start the tournament (TRN-1): refused with fewer registered entries than its minimum; the
    seats are drawn if the floor has not drawn them yet (TRN-9), and the clock starts (TRN-8)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    refusal = refusals.start_refusal(tournament)
    if refusal is not None:
        raise refusal
    if not tournament.tables.exists():
        seating.seating_draw(actor=actor, tournament=tournament, now=now, rng=rng)
    return clock.clock_start(actor=actor, tournament=tournament, now=now)


@transaction.atomic
def tournament_postpone(
    *, actor, tournament: Tournament, start_at: datetime, now: datetime | None = None
) -> Tournament:
    """Move the start time (TRN-1: the floor may postpone a start that is short of players)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if timezone.is_naive(start_at):
        raise DomainError("naive_start", _("The start time needs a time zone."))
    tournament = lock_tournament(tournament.pk)
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise DomainError(
            "already_started",
            _("Only a tournament that has not started can be postponed."),
            rule="TRN-1",
            status_code=409,
        )
    if start_at <= tournament.start_at:
        raise DomainError(
            "not_later", _("Postponing needs a start time later than the current one."), rule="TRN-1"
        )
    before = snapshot(tournament, ["start_at"])
    tournament.start_at = start_at
    tournament.save(update_fields=["start_at"])
    audit_record(
        actor=actor,
        action="tournament.postpone",
        obj=tournament,
        before=before,
        after=snapshot(tournament, ["start_at"]),
        now=now,
    )
    return tournament
