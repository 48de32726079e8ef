"""The colour-up's chip race entered seat by seat (CHP-1), checked against the TDA race and
recorded once per table, audited. A result that would race a player out of the tournament, or
that does not follow the cards, is refused and nothing is written."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from poker.colour_up import RaceError, RaceSeat, race_check, table_colour_up
from poker.common import PokerError
from tournaments import refusals
from tournaments.models import ColourUpRace, EntryStatus, Table, TableStatus
from tournaments.selectors import tournament_clock_get
from tournaments.selectors.colour_up import colour_up_plan, next_colour_up, tournament_chips
from tournaments.services._common import lock_tournament

RULE = "CHP-1"


@dataclass(frozen=True)
class SeatRace:
    """What the table did at one seat: the leaving chips he held (chip -> count), his best card,
    whether he got a chip in the race, and whether those were his last chips."""

    seat: int
    leaving: dict[int, int] = field(default_factory=dict)
    card: str = ""
    got_chip: bool = False
    last_chips: bool = False


def _refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule=RULE)


def _race_error(error: PokerError) -> DomainError:
    if isinstance(error, RaceError) and error.code == "raced_out":
        return _refuse(
            "raced_out",
            _(
                "Seat %(seat)s would be raced out of the tournament: a player who loses the race with "
                "the last chips gets one chip of %(chip)s. Mark that the player gets a chip."
            )
            % {"seat": error.seat, "chip": error.chip_up},
        )
    if isinstance(error, RaceError):
        return _refuse(
            "race_mismatch",
            _("The race does not follow the cards: the chips go to the highest cards. Check seat %(seat)s.")
            % {"seat": error.seat},
        )
    if error.code == "card_missing":
        return _refuse("card_missing", _("Every player with odd chips needs a best card for the race."))
    if error.code in ("duplicate_card", "bad_card"):
        return _refuse(error.code, _("Enter each card once, as rank and suit (As, Td, 9h)."))
    if error.code == "negative_chips":
        return _refuse("negative_chips", _("Chip counts cannot be negative."))
    if error.code == "no_chips":
        return _refuse("no_chips", _("A player with no chips at all is out already: record the bust-out."))
    return _refuse(error.code, error.message)


@transaction.atomic
def colour_up_race_record(
    *, actor, table: Table, seats: list[SeatRace], now: datetime | None = None
) -> ColourUpRace:
    """Record the race of the colour-up at hand at `table` (see the module)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(table.tournament_id)
    table = Table.objects.get(pk=table.pk)
    refusal = refusals.colour_up_race_refusal(tournament)
    if refusal is not None:
        raise refusal
    if table.status != TableStatus.OPEN:
        raise _refuse("not_running", _("Chips are raced at an open table of a running tournament."))
    clock = tournament_clock_get(tournament=tournament, now=now)
    chips = [chip.value for chip in tournament_chips(tournament=tournament)]
    active = next_colour_up(colour_up_plan(levels=clock["levels"], chips=chips), clock["level"]["index"])
    if active is None:
        raise _refuse("no_colour_up", _("No chip leaves play in the levels to come."))
    if ColourUpRace.objects.filter(table=table, level_order=active["order"]).exists():
        raise Conflict(
            "race_recorded", _("The race of %(table)s is recorded already.") % {"table": table}, rule=RULE
        )
    seated = {
        entry.seat: entry for entry in tournament.entries.filter(table=table, status=EntryStatus.ACTIVE)
    }
    given = {seat.seat: seat for seat in seats}
    if set(given) - set(seated):
        raise _refuse(
            "seat_empty", _("Seat %(seat)s has no player.") % {"seat": min(set(given) - set(seated))}
        )
    leaving = set(active["leaving"])
    race_seats = []
    for number in sorted(seated):
        row = given.get(number, SeatRace(seat=number))
        if set(row.leaving) - leaving:
            raise _refuse("not_leaving", _("Only the chips leaving play are raced."))
        race_seats.append(
            RaceSeat(number, dict(row.leaving), other_chips=not row.last_chips, card=row.card or None)
        )
    try:
        result = table_colour_up(race_seats, active["chip_up"])
        race_check(result, {row.seat for row in seats if row.got_chip})
    except PokerError as error:
        raise _race_error(error) from None
    by_seat = {seat.seat: seat for seat in race_seats}
    rows = [
        {
            "seat": row.seat,
            "entry": seated[row.seat].pk,
            "leaving": {str(chip): count for chip, count in by_seat[row.seat].leaving.items() if count},
            "card": by_seat[row.seat].card or "",
            "last_chips": not by_seat[row.seat].other_chips,
            "leaving_value": row.leaving_value,
            "odd_value": row.odd_value,
            "exchanged": row.exchanged,
            "won": row.won,
            "saved": row.saved,
            "chips_up": row.chips_up,
        }
        for row in result.seats
    ]
    race = ColourUpRace.objects.create(
        tournament=tournament,
        table=table,
        level_order=active["order"],
        leaving=active["leaving"],
        chip_up=active["chip_up"],
        seats=rows,
        odd_total=result.odd_total,
        raced=result.raced,
        chips_to_bring=result.chips_to_bring,
        chips_back=result.chips_back,
        recorded_at=now,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    audit_record(
        actor=actor,
        action="tournament.colour_up_race",
        obj=race,
        after={
            "level": active["level"],
            "leaving": active["leaving"],
            "chip_up": active["chip_up"],
            "raced": result.raced,
            "chips_to_bring": result.chips_to_bring,
            # [seat, chips up he got] for every seat
            "seats": [[row["seat"], row["chips_up"]] for row in rows],
        },
        now=now,
    )
    return race
