"""Reads for setting up multi-day events (SER-2): the list of events with their flights and Day 2,
and which of the venue's tournaments the set-up forms may offer, with the same checks the
services make (a tournament the service would refuse is not offered)."""

from django.db.models import Prefetch

from tournaments.models import Event, GuaranteeMode, Tournament, TournamentStatus

NOT_STARTED = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)


def event_list() -> list[Event]:
    """The venue's events, newest first, each with its flights (`flight_list`) and its Day 2."""
    flights = Tournament.objects.order_by("flight_label", "start_at", "pk")
    return list(
        Event.objects.select_related("day_two").prefetch_related(
            Prefetch("flights", queryset=flights, to_attr="flight_list")
        )
    )


def _free_tournaments():
    """Tournaments of this venue that are in no event and have not started."""
    return (
        Tournament.objects.filter(event__isnull=True, day_two_of__isnull=True, status__in=NOT_STARTED)
        .select_related("structure")
        .order_by("start_at", "pk")
    )


def flight_candidates() -> list[Tournament]:
    """What event_flight_add accepts: not started, in no event, no guarantee and no bounty of
    its own (the guarantee is the event's; a flight's chips go on to the Day 2)."""
    return list(_free_tournaments().filter(guarantee_mode=GuaranteeMode.NONE, bounty_cents=0))


def day_two_candidates() -> list[Tournament]:
    """What event_day_two_set accepts: not started, in no event, no entry sold."""
    return list(_free_tournaments().filter(entries__isnull=True).distinct())


def next_flight_label(*, event: Event) -> str:
    """The label the next flight would usually take: 1A, then 1B, ... (the floor may change it)."""
    taken = set(Tournament.objects.filter(event=event).values_list("flight_label", flat=True))
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if f"1{letter}" not in taken:
            return f"1{letter}"
    return ""
