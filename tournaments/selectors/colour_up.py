"""Colour-ups of a tournament (CHP-1), read-only: which chips leave at which level (from the
tournament's own levels and its chip set, by `poker.colour_up`), the TV's announcement, and the
floor's per-table sheet with the races already entered."""

from datetime import datetime

from django.db.models import Subquery
from django.utils.translation import gettext as _

from cardroom.money import format_chips
from chips.models import ChipSet, ChipSetKind, Denomination
from poker.colour_up import ColourUp, colour_ups
from tournaments.models import ColourUpRace, EntryStatus, LevelKind, TableStatus, Tournament
from tournaments.selectors import tournament_clock_get
from tournaments.selectors.floor import player_label


def tournament_chips(*, tournament: Tournament) -> list[Denomination]:
    """The chips of the tournament's set, smallest first (the house's default tournament set
    when it names none). One query."""
    chips = Denomination.objects.select_related("chip_set").order_by("value")
    if tournament.chip_set_id is not None:
        return list(chips.filter(chip_set_id=tournament.chip_set_id))
    default = ChipSet.objects.filter(kind=ChipSetKind.TOURNAMENT).order_by("pk").values("pk")[:1]
    return list(chips.filter(chip_set_id=Subquery(default)))


def chips_text(values) -> str:
    """ "25" or "25, 100": the chips as the room says them."""
    return ", ".join(format_chips(value) for value in values)


def colour_up_plan(*, levels: list[dict], chips: list[int]) -> list[dict]:
    """Every colour-up of the levels (the clock's level dicts), with the level number it is at."""
    if not chips:
        return []
    amounts = [
        None
        if level["kind"] == LevelKind.BREAK
        else (level["small_blind_chips"], level["big_blind_chips"], level["ante_chips"])
        for level in levels
    ]
    return [_row(up, levels) for up in colour_ups(amounts, chips)]


def _row(up: ColourUp, levels: list[dict]) -> dict:
    return {
        "index": up.position,
        "order": up.position + 1,
        "level": levels[up.position]["number"],
        "leaving": list(up.leaving),
        "leaving_text": chips_text(up.leaving),
        "chip_up": up.chip_up,
        "chip_up_text": format_chips(up.chip_up),
    }


def next_colour_up(plan: list[dict], index: int | None) -> dict | None:
    """The colour-up at the current level or the next one ahead (None: none to come)."""
    if index is None:
        return None
    return next((row for row in plan if row["index"] >= index), None)


def colour_up_announcement(*, tournament: Tournament, state: dict) -> dict | None:
    """What the TV says about the next colour-up (CHP-1), in the active language."""
    level = state.get("level")
    if level is None:
        return None
    chips = [chip.value for chip in tournament_chips(tournament=tournament)]
    row = next_colour_up(colour_up_plan(levels=state["levels"], chips=chips), level["index"])
    if row is None:
        return None
    now = row["index"] == level["index"] or (
        row["index"] == level["index"] + 1 and level["kind"] == LevelKind.BREAK
    )
    values = {"chips": row["leaving_text"], "level": row["level"]}
    text = (
        _("Colour-up now: the %(chips)s chips leave play at level %(level)s") % values
        if now
        else _("Next colour-up: %(chips)s chips leave at level %(level)s") % values
    )
    return {**row, "now": now, "text": text}


def colour_up_sheet_get(*, tournament: Tournament, now: datetime | None = None) -> dict:
    """The floor's sheet for the colour-up at hand: for each open table its seated players and,
    once entered, the race's result. Four queries whatever the field's size."""
    clock = tournament_clock_get(tournament=tournament, now=now)
    chips = tournament_chips(tournament=tournament)
    plan = colour_up_plan(levels=clock["levels"], chips=[chip.value for chip in chips])
    index = clock["level"]["index"] if clock["level"] else None
    active = next_colour_up(plan, index)
    tables = []
    if active is not None:
        by_value = {chip.value: chip for chip in chips}
        active["leaving_chips"] = [by_value[value] for value in active["leaving"]]
        active["chip_up_chip"] = by_value[active["chip_up"]]
        races = {
            race.table_id: race
            for race in ColourUpRace.objects.filter(tournament=tournament, level_order=active["order"])
        }
        seated: dict[int, list] = {}
        for entry in (
            tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False)
            .select_related("player")
            .order_by("seat")
        ):
            seated.setdefault(entry.table_id, []).append(entry)
        for table in tournament.tables.filter(status=TableStatus.OPEN).order_by("number"):
            race = races.get(table.pk)
            results = {row["seat"]: row for row in race.seats} if race else {}
            seats = [
                {
                    "seat": entry.seat,
                    "entry": entry,
                    "label": player_label(entry),
                    "result": results.get(entry.seat),
                }
                for entry in seated.get(table.pk, [])
            ]
            back = {}
            for row in race.seats if race else []:
                for chip, count in row["leaving"].items():
                    back[int(chip)] = back.get(int(chip), 0) + count
            tables.append(
                {
                    "table": table,
                    "seats": seats,
                    "race": race,
                    "back": [(by_value[value], back[value]) for value in sorted(back) if value in by_value],
                }
            )
    return {"plan": plan, "active": active, "chips": chips, "tables": tables, "clock": clock}
