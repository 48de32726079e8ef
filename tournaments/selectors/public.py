"""What the public pages show of the tournaments (no log-in): today's tournaments for the room
page, and "find my seat" for a tournament's page. Public names only (WTL-3): a player is found
by the name the screens show him by, or by his entry number; never by his full name (unless he
opted in to have it shown) or his card number.
"""

from datetime import datetime

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from cardroom.selectors import gaming_day_bounds, gaming_day_of
from players.models import normalize
from players.selectors import public_names
from tournaments.models import (
    CLOCK_STARTED,
    COUNTED_STATUSES,
    EntryKind,
    EntryStatus,
    GuaranteeMode,
    Tournament,
    TournamentStatus,
)

CLOSED = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _rules_or_none(tournament: Tournament):
    try:
        return tournament.rules
    except Tournament.rules.RelatedObjectDoesNotExist:
        return None


def registration_state(tournament: Tournament, rules) -> tuple[str, str]:
    """(code, words) of the tournament's registration (TRN-6): before the start it is open; after
    it, late registration runs until the end of level N unless the floor closed it."""
    closed_by_floor = rules is not None and rules.registration_closed_at is not None
    level = tournament.late_registration_level
    if tournament.status in CLOSED:
        return "over", ""
    if tournament.status == TournamentStatus.SCHEDULED:
        return "soon", _("Registration opens soon")
    if closed_by_floor:
        return "closed", _("Registration closed")
    if tournament.status == TournamentStatus.REGISTERING:
        if level:
            return "open", _("Registration open; late registration until the end of level %(level)d") % {
                "level": level
            }
        return "open", _("Registration open until the start")
    if level:
        return "late", _("Late registration open until the end of level %(level)d") % {"level": level}
    return "closed", _("Registration closed")


def tournaments_today_list(*, now: datetime) -> list[dict]:
    """The tournaments of today's gaming day (venue time), and any still running from before,
    first to start first: start time, buy-in, guarantee, entries, registration. One query."""
    start, end = gaming_day_bounds(gaming_day_of(now))
    tournaments = (
        Tournament.objects.filter(Q(start_at__gte=start, start_at__lt=end) | Q(status__in=CLOCK_STARTED))
        .select_related("rules")
        .annotate(registered=Count("entries", filter=Q(entries__status__in=COUNTED_STATUSES)))
        .order_by("start_at", "pk")
    )
    rows = []
    for tournament in tournaments:
        code, words = registration_state(tournament, _rules_or_none(tournament))
        rows.append(
            {
                "tournament": tournament,
                "start_at": tournament.start_at,
                "buy_in_cents": tournament.buy_in_cents,
                "guarantee_cents": tournament.guarantee_cents
                if tournament.guarantee_mode != GuaranteeMode.NONE
                else None,
                "registered": tournament.registered,
                "registration": code,
                "registration_text": words,
                "status_label": tournament.get_status_display(),
            }
        )
    return rows


def _nickname(player) -> str:
    """The nickname to find a player by; none when it is his full name (that stays private)."""
    nickname = normalize(player.nickname)
    return "" if nickname == normalize(f"{player.first_name} {player.last_name}") else nickname


def seat_find(*, tournament: Tournament, query: str) -> dict | None:
    """Where a player sits, found by his entry number or by the name the public screens show
    him by (or his nickname), ignoring case and accents. None for an empty query; else
    {"found": False} ("ambiguous" when several players answer to the name) or
    {"found": True, "name", "number", "status", "table", "seat", "place", "chips"} (chips: the
    bag a Day 2 player starts with, SER-2; None otherwise).
    Two queries at most: the tournament's entries with their players and tables."""
    query = " ".join((query or "").split())
    if not query:
        return None
    entries = list(
        tournament.entries.filter(status__in=COUNTED_STATUSES)
        .select_related("player", "table")
        .order_by("-number")
    )
    names = public_names(entry.player for entry in entries)
    wanted = normalize(query.removeprefix("#"))
    if wanted.isdigit():
        matches = [entry for entry in entries if entry.number == int(wanted)]
    else:
        matches = [
            entry
            for entry in entries
            if normalize(names[entry.player_id]) == wanted or _nickname(entry.player) == wanted
        ]
    if not matches:
        return {"found": False, "query": query}
    if len({entry.player_id for entry in matches}) > 1:
        # "Ace" typed, "Ace K." and "Ace M." playing: only the entry number tells them apart.
        return {"found": False, "query": query, "ambiguous": True}
    # A player's re-entries share his name: the one still playing, else the latest.
    matches.sort(key=lambda entry: (entry.status != EntryStatus.ACTIVE, -entry.number))
    entry = matches[0]
    return {
        "found": True,
        "query": query,
        "name": names[entry.player_id],
        "number": entry.number,
        "status": entry.status,
        "table": entry.table.number if entry.status == EntryStatus.ACTIVE and entry.table else None,
        "seat": entry.seat if entry.status == EntryStatus.ACTIVE and entry.table else None,
        "place": entry.finish_place,
        # A Day 2 seat of a multi-day event starts with its bag (SER-2): the phone shows it.
        "chips": entry.starting_stack_chips if entry.kind == EntryKind.BAG else None,
    }
