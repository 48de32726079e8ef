"""Satellites (SER-1): a tournament whose payouts are seats in a target tournament, and whether a
target takes a seat won or given now."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments.models import Tournament, TournamentStatus
from tournaments.services._common import lock_tournament, rules_for
from tournaments.services.tickets._common import refuse

CLOSED_STATUSES = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def target_refusal(target: Tournament) -> str:
    """Why a tournament can take no seat won or given now ("" when it can): it is over, or its
    (late) registration has closed."""
    if target.status in CLOSED_STATUSES:
        return _("%(target)s is %(status)s: it takes no new entries.") % {
            "target": target.name,
            "status": target.get_status_display(),
        }
    if rules_for(target).registration_closed_at is not None:
        return _("Registration for %(target)s has closed: it takes no new entries.") % {"target": target.name}
    if target.buy_in_cents <= 0:
        return _("%(target)s has no buy-in: a seat in it is worth nothing.") % {"target": target.name}
    return ""


@transaction.atomic
def tournament_satellite_set(
    *, actor, tournament: Tournament, target: Tournament | None, now: datetime | None = None
) -> Tournament:
    """Make a tournament a satellite of `target` (or an ordinary tournament again, None). Refused
    for itself, a tournament of another venue, a target that takes no entries, a loop of
    satellites, and once the satellite's payouts are final."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    locked = lock_tournament(tournament.pk)
    if rules_for(locked).payouts_finalised_at is not None:
        raise refuse(
            "satellite_payouts_final", _("The payouts are final; the satellite can no longer change."), 409
        )
    if target is not None:
        if target.pk == locked.pk:
            raise refuse(
                "satellite_of_itself",
                _("A satellite cannot award seats in itself: choose another tournament."),
            )
        target = Tournament.all_venues.filter(pk=target.pk).first()
        if target is None or target.venue_id != locked.venue_id:
            raise refuse(
                "satellite_other_venue",
                _(
                    "A satellite awards seats in a tournament of its own venue: choose one of this "
                    "venue's tournaments."
                ),
            )
        refusal = target_refusal(target)
        if refusal:
            raise refuse("satellite_target_closed", refusal, 409)
        seen, step = {locked.pk}, target
        while step is not None and step.satellite_target_id is not None:
            if step.satellite_target_id in seen:
                raise refuse(
                    "satellite_loop",
                    _("%(target)s leads back to this tournament: satellites cannot go in a circle.")
                    % {"target": target.name},
                )
            seen.add(step.pk)
            step = Tournament.all_venues.filter(pk=step.satellite_target_id).first()
    before = {"satellite_target": locked.satellite_target_id}
    locked.satellite_target = target
    locked.save(update_fields=["satellite_target"])
    audit_record(
        actor=actor,
        action="tournament.satellite",
        obj=locked,
        before=before,
        after={"satellite_target": target.pk if target else None},
        now=now,
    )
    return locked
