"""What the tournament services share: the row locks, the status table, the clock's audit
snapshot and the sending of the level-end task (by its name: see cardroom/task_queue.py)."""

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.services import snapshot
from cardroom.task_queue import send_on_commit
from tournaments.models import (
    CLOCK_RUNNING,
    TRANSITIONS,
    Entry,
    Ticket,
    Tournament,
    TournamentRules,
    TournamentStatus,
)

CLOCK_FIELDS = ["status", "current_level_index", "level_started_at", "level_ends_at", "paused_remaining_ms"]
# ETA messages stay well under half of the broker's visibility timeout (3600 s on Redis), or an
# unacknowledged message waiting for its time would be delivered twice (STYLE.md). A level that
# ends later than this gets its ETA message from the reconciler once it comes within range.
ETA_HORIZON = timedelta(minutes=25)


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row under a lock; every clock and status change holds it."""
    return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)


def lock_entry(entry: Entry) -> tuple[Tournament, Entry]:
    """The entry's tournament, then the entry, both locked (the order every service keeps)."""
    tournament = lock_tournament(entry.tournament_id)
    return tournament, Entry.objects.select_for_update(of=("self",)).get(pk=entry.pk)


def lock_ticket(ticket_id: int) -> Ticket:
    """A ticket row under its lock (SER-1): every use, refund or expiry holds it, taken after the
    tournament's lock, so two desks cannot both use one ticket."""
    return Ticket.all_venues.select_for_update(of=("self",)).select_related("player").get(pk=ticket_id)


def clock_snapshot(tournament: Tournament) -> dict:
    return snapshot(tournament, CLOCK_FIELDS)


def check_transition(tournament: Tournament, to: str) -> None:
    """Refuse a change of status the table in models.TRANSITIONS does not allow."""
    if to not in TRANSITIONS[tournament.status]:
        raise DomainError(
            "illegal_transition",
            _("A tournament that is %(current)s cannot become %(target)s.")
            % {"current": tournament.get_status_display(), "target": TournamentStatus(to).label},
            status_code=409,
        )


def enqueue_tick(tournament: Tournament, *, now: datetime) -> None:
    """Send the ETA message for the current level's end, after commit, when it is near enough.

    The caller holds the tournament's lock and saves `tick_eta_at` with its other changes.
    """
    ends_at = tournament.level_ends_at
    if tournament.status not in CLOCK_RUNNING or ends_at is None or ends_at - now > ETA_HORIZON:
        return
    if tournament.tick_eta_at == ends_at:
        return
    tournament.tick_eta_at = ends_at
    send_on_commit(
        "tournaments.clock_tick",
        eta=ends_at,
        tournament_id=tournament.pk,
        due=ends_at.isoformat(),
        venue_id=tournament.venue_id,
    )


def rules_for(tournament: Tournament):
    """The tournament's rules-and-outcomes row, created on first use. The caller holds the
    tournament's lock for a write, so creating it here cannot race."""
    rules, _created = TournamentRules.objects.get_or_create(tournament=tournament)
    return rules


def tournament_owner(tournament_id: int) -> str:
    """The ledger owner of a tournament's prize pool, bounty pool and refunds payable."""
    return f"tournament:{tournament_id}"
