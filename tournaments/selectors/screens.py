"""What the room's screens (the `screens` app: the floor view, the TV clock, the players' pages)
read of the tournaments beyond the clock and the field, so that they never touch the models:
the tournaments on the clock, a tournament by its number, the entries with a place or a prize and
those a deal was made between, and the words a clock shows. Nothing here writes."""

from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import CLOCK_STARTED, EntryStatus, Tournament, TournamentStatus

CLOSED = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def tournaments_on_the_clock() -> list[Tournament]:
    """The tournaments whose clock has started and not stopped (running, on a break, paused),
    earliest first."""
    # Their rules row in the same query: hand for hand (SER-3) is read from it.
    return list(
        Tournament.objects.filter(status__in=CLOCK_STARTED).select_related("rules").order_by("start_at", "pk")
    )


def tournament_get(*, pk: int) -> Tournament | None:
    return Tournament.objects.filter(pk=pk).first()


def tournament_closed(tournament: Tournament) -> bool:
    """Finished or cancelled: nothing more happens on its clock."""
    return tournament.status in CLOSED


def tournament_finished(tournament: Tournament) -> bool:
    return tournament.status == TournamentStatus.FINISHED


def entry_status_labels() -> dict[str, str]:
    """Each entry status in words, in the active language (read once per drawing, not per seat)."""
    return {status: str(label) for status, label in EntryStatus.choices}


def prized_entries(*, tournament: Tournament) -> list:
    """Entries with a place or a prize, with their players: one query, only once it matters."""
    return list(
        tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])
        .filter(Q(finish_place__isnull=False) | Q(prize_cents__isnull=False))
        .select_related("player")
        .order_by("pk")
    )


def deal_entries(entries: list, *, accepted_at: datetime) -> list:
    """Of `prized_entries`, those the deal was made between (TRN-10): the entries still in when
    it was accepted (some may have played on for the title), largest share first."""
    dealt = [
        entry
        for entry in entries
        if entry.prize_cents is not None
        and (entry.status == EntryStatus.ACTIVE or (entry.busted_at and entry.busted_at >= accepted_at))
    ]
    dealt.sort(key=lambda entry: (-entry.prize_cents, entry.number))
    return dealt


def clock_labels() -> dict[str, str]:
    """The words the clock script writes, translated (the script itself holds no text)."""
    return {
        "level": _("Level"),
        "break": _("Break"),
        "ante": _("Ante"),
        "bbAnte": _("BB ante"),
        "minutes": _("min"),
        "noEnd": _("Last level"),
        "offline": _("Offline: counting locally"),
        "running": str(TournamentStatus.RUNNING.label),
        "on_break": str(TournamentStatus.ON_BREAK.label),
    }
