"""Chip counts during play: a table's counts entered seat by seat, at a break or whenever the
floor wants (issue 27, item 3; shown on the TV and the phones per SER-2, the start of a deal per
TRN-10). One table's counts are written together or not at all, audited with each entry's count
before and after. A count that is not a whole number of chips, a seat without a player, a
player who is out or of another tournament, or a tournament not running is refused and nothing
is written."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments import refusals
from tournaments.models import ChipCount, Entry, EntryStatus, Table, TableStatus, Tournament
from tournaments.selectors.counts import latest_counts
from tournaments.services._common import lock_tournament

RULE = "SER-2"
NOTE_LENGTH = 200


def _refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def _chips(seat: int, value) -> int:
    """A count as typed ("12,500", "12 500", 12500) in whole chips, 1 or more."""
    if isinstance(value, bool):
        value = str(value)
    chips = parse_chips(value, field=_("Seat %(seat)s") % {"seat": seat})
    if chips < 0:
        raise _refuse(
            "negative_count",
            _("Seat %(seat)s: a chip count cannot be negative (%(value)s). Count the stack again.")
            % {"seat": seat, "value": value},
        )
    if chips == 0:
        raise _refuse(
            "zero_count",
            _("Seat %(seat)s: a player with no chips is out. Record the bust-out instead of a count.")
            % {"seat": seat},
        )
    return chips


def _check_expected(tournament: Tournament, seat: int, entry_id: int, seated: Entry | None) -> None:
    """The page showed `entry_id` at `seat`: refuse when that entry is out, of another tournament
    or no longer there (the floor counted a stack the page no longer matches)."""
    if seated is not None and seated.pk == entry_id:
        return
    shown = Entry.objects.filter(pk=entry_id).first()
    if shown is None or shown.tournament_id != tournament.pk:
        raise _refuse(
            "other_tournament",
            _("Seat %(seat)s: that entry is not in %(tournament)s. Reload the page and count again.")
            % {"seat": seat, "tournament": tournament.name},
        )
    if shown.status != EntryStatus.ACTIVE:
        raise _refuse(
            "entry_out",
            _("Seat %(seat)s: entry #%(number)d is out (%(status)s); a busted player has no count.")
            % {"seat": seat, "number": shown.number, "status": shown.get_status_display()},
            status_code=409,
        )
    raise _refuse(
        "entry_moved",
        _("Seat %(seat)s: entry #%(number)d no longer sits there. Reload the page and count again.")
        % {"seat": seat, "number": shown.number},
        status_code=409,
    )


@transaction.atomic
def chip_counts_record(
    *,
    tournament: Tournament,
    table: Table,
    counts: dict[int, str | int],
    actor,
    now: datetime | None = None,
    entries: dict[int, int] | None = None,
    note: str = "",
) -> list[ChipCount]:
    """Record `table`'s counts {seat: chips as typed}, seat by seat, in one transaction. Each new
    count supersedes the entry's last one. `entries` {seat: entry id} is who the page showed in
    each seat; a count for a seat whose player changed since is refused. Holds the tournament's
    lock (as a bust-out does), so a count never lands on a player busted meanwhile."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    refusal = refusals.chip_count_refusal(tournament)
    if refusal is not None:
        raise refusal
    table = Table.objects.filter(pk=table.pk).first()
    if table is None or table.tournament_id != tournament.pk:
        raise _refuse(
            "other_tournament",
            _("That table is not one of %(tournament)s.") % {"tournament": tournament.name},
            status_code=404,
        )
    if table.status != TableStatus.OPEN:
        raise _refuse(
            "table_broken",
            _("%(table)s is broken: count its players at their new tables.") % {"table": table},
        )
    given = {int(seat): value for seat, value in counts.items() if str(value).strip() != ""}
    if not given:
        raise _refuse("no_counts", _("Type at least one player's chips."))
    seated = {
        entry.seat: entry
        for entry in tournament.entries.filter(table=table, status=EntryStatus.ACTIVE).select_related(
            "player"
        )
    }
    parsed: dict[int, int] = {}
    for seat in sorted(given):
        if not 1 <= seat <= table.seats or (seat not in seated and seat not in (entries or {})):
            raise _refuse(
                "seat_empty",
                _("Seat %(seat)s has no player: leave it blank.") % {"seat": seat},
            )
        if entries and seat in entries:
            _check_expected(tournament, seat, entries[seat], seated.get(seat))
        parsed[seat] = _chips(seat, given[seat])
    note = " ".join(note.split())[:NOTE_LENGTH]
    before = latest_counts(tournament=tournament, entry_ids=[seated[seat].pk for seat in parsed])
    user = actor if getattr(actor, "is_authenticated", False) else None
    rows = ChipCount.objects.bulk_create(
        [
            ChipCount(
                venue_id=tournament.venue_id,
                tournament=tournament,
                entry=seated[seat],
                table=table,
                seat=seat,
                count=chips,
                counted_at=now,
                counted_by=user,
                note=note,
            )
            for seat, chips in parsed.items()
        ]
    )
    if any(row.pk is None for row in rows):  # a database that gives no ids back: read them
        rows = list(ChipCount.objects.filter(table=table, counted_at=now).order_by("pk"))
    audit_record(
        actor=actor,
        action="tournament.chip_counts",
        obj=table,
        # {entry number: chips}: before (none for a first count) and after, seat by seat.
        before={
            str(seated[seat].number): before[seated[seat].pk].count if seated[seat].pk in before else None
            for seat in parsed
        },
        after={str(seated[seat].number): chips for seat, chips in parsed.items()},
        note=note,
        now=now,
    )
    return rows
