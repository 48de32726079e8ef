"""An event set up by a manager: the event with its house options, its Day-1 flights and its Day 2
(SER-2)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record
from tournaments.models import BagRule, Event, GuaranteeMode, Tournament, TournamentStatus
from tournaments.services._common import lock_tournament
from tournaments.services.events._common import lock_event, refuse


@transaction.atomic
def event_create(
    *,
    actor,
    name: str,
    bag_rule: str = BagRule.BEST,
    guarantee_cents: int = 0,
    guarantee_mode: str = GuaranteeMode.NONE,
    guarantee_player_count: int = 15,
    now: datetime | None = None,
) -> Event:
    """A manager creates a multi-day event with its house options (SER-2; guarantee TRN-3..5)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    name = name.strip()
    if not name:
        raise refuse("name_required", _("Give the event a name."))
    if bag_rule not in BagRule.values:
        raise refuse("bag_rule", _("Choose whether a player's best bag or his first goes through."))
    if guarantee_mode not in GuaranteeMode.values or (guarantee_mode == GuaranteeMode.NONE) != (
        guarantee_cents == 0
    ):
        raise refuse("guarantee", _("A guarantee needs an amount and its kind; no guarantee has neither."))
    if guarantee_cents < 0 or guarantee_player_count < 1:
        raise refuse("guarantee", _("A guarantee needs an amount and its kind; no guarantee has neither."))
    if Event.objects.filter(name=name).exists():
        raise refuse("name_taken", _("An event of this name exists already."))
    event = Event.objects.create(
        name=name,
        bag_rule=bag_rule,
        guarantee_cents=guarantee_cents,
        guarantee_mode=guarantee_mode,
        guarantee_player_count=guarantee_player_count,
    )
    audit_record(
        actor=actor,
        action="event.create",
        obj=event,
        after={
            "name": name,
            "bag_rule": bag_rule,
            "guarantee_cents": guarantee_cents,
            "guarantee_mode": guarantee_mode,
            "guarantee_player_count": guarantee_player_count,
        },
        now=now,
    )
    return event


@transaction.atomic
def event_flight_add(
    *, actor, event: Event, tournament: Tournament, label: str, now: datetime | None = None
) -> Tournament:
    """Make a tournament a Day-1 flight of the event ("1A"). It keeps its own buy-in, minimum
    players (TRN-1) and registration rules; its guarantee is the event's (none of its own)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    event = lock_event(event.pk)
    tournament = lock_tournament(tournament.pk)
    label = label.strip().upper()
    if not label or len(label) > 8:
        raise refuse("flight_label", _("Give the flight a short label, as 1A."))
    if tournament.event_id is not None or Event.objects.filter(day_two=tournament).exists():
        raise refuse("already_in_event", _("This tournament is part of an event already."))
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise refuse("flight_started", _("Only a tournament that has not started can become a flight."))
    if tournament.guarantee_mode != GuaranteeMode.NONE:
        raise refuse(
            "flight_guarantee", _("The guarantee is the event's: remove the flight's own guarantee first.")
        )
    if tournament.bounty_cents:
        raise refuse("flight_bounty", _("A flight has no bounty: its chips go on to the Day 2."))
    if Tournament.objects.filter(event=event, flight_label=label).exists():
        raise refuse("flight_label_taken", _("The event has a flight %(label)s already.") % {"label": label})
    if event.day_two_drawn_at is not None:
        raise refuse("day_two_drawn", _("The Day 2 is drawn already."))
    tournament.event, tournament.flight_label = event, label
    tournament.save(update_fields=["event", "flight_label"])
    audit_record(
        actor=actor,
        action="event.flight_add",
        obj=tournament,
        after={"event": event.name, "flight_label": label},
        now=now,
    )
    return tournament


@transaction.atomic
def event_day_two_set(*, actor, event: Event, tournament: Tournament, now: datetime | None = None) -> Event:
    """Name the event's Day 2: a scheduled tournament with no entries. It takes the event's
    guarantee (decided when it is drawn) and sells no entries: its players come from the bags."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    event = lock_event(event.pk)
    tournament = lock_tournament(tournament.pk)
    if event.day_two_id is not None:
        raise refuse("day_two_set", _("The event has its Day 2 already."))
    if tournament.event_id is not None or Event.objects.filter(day_two=tournament).exists():
        raise refuse("already_in_event", _("This tournament is part of an event already."))
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING) or (
        tournament.entries.exists()
    ):
        raise refuse("day_two_not_empty", _("The Day 2 must be a tournament not started, with no entries."))
    tournament.guarantee_mode = event.guarantee_mode
    tournament.guarantee_cents = event.guarantee_cents
    tournament.guarantee_player_count = event.guarantee_player_count
    tournament.save(update_fields=["guarantee_mode", "guarantee_cents", "guarantee_player_count"])
    event.day_two = tournament
    event.save(update_fields=["day_two"])
    audit_record(
        actor=actor, action="event.day_two_set", obj=event, after={"tournament": tournament.pk}, now=now
    )
    return event
