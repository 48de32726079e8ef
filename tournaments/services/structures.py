"""Writes of blind structures (TRN-7): validated templates, imported from CSV or JSON."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record
from chips.models import ChipSet, ChipSetKind
from chips.selectors import chip_set_default
from tournaments import structure_io
from tournaments.models import (
    MAX_LEVEL_MINUTES,
    MAX_LEVELS,
    MIN_LEVEL_MINUTES,
    BlindStructure,
    LevelKind,
    StructureLevel,
)
from tournaments.selectors import structure_levels_data

MAX_CHIPS = 10**9


def _refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule="TRN-7")


def validate_level(level: dict, *, position: int) -> dict:
    """One level or break, normalised; `position` (1-based) names it in the error."""
    kind = level.get("kind", LevelKind.LEVEL)
    if kind not in LevelKind.values:
        raise _refuse(
            "invalid_level_kind",
            _("Row %(row)d: the kind must be “%(level)s” or “%(break)s”.")
            % {"row": position, "level": "level", "break": "break"},
        )
    clean = {
        "kind": kind,
        "small_blind_chips": int(level.get("small_blind_chips") or 0),
        "big_blind_chips": int(level.get("big_blind_chips") or 0),
        "ante_chips": int(level.get("ante_chips") or 0),
        "big_blind_ante": bool(level.get("big_blind_ante", False)),
        "minutes": int(level.get("minutes") or 0),
        "note": str(level.get("note") or "").strip(),
    }
    values = {"row": position, **clean}
    if not MIN_LEVEL_MINUTES <= clean["minutes"] <= MAX_LEVEL_MINUTES:
        raise _refuse(
            "invalid_level_minutes",
            _("Row %(row)d: a level lasts %(low)d to %(high)d minutes, not %(minutes)d.")
            % {**values, "low": MIN_LEVEL_MINUTES, "high": MAX_LEVEL_MINUTES},
        )
    if len(clean["note"]) > 200:
        raise _refuse("note_too_long", _("Row %(row)d: the note is longer than 200 characters.") % values)
    chips = (clean["small_blind_chips"], clean["big_blind_chips"], clean["ante_chips"])
    if any(value < 0 or value > MAX_CHIPS for value in chips):
        raise _refuse("invalid_chips", _("Row %(row)d: blinds and ante must be 0 to 1,000,000,000.") % values)
    if kind == LevelKind.BREAK:
        if any(chips) or clean["big_blind_ante"]:
            raise _refuse(
                "break_with_blinds",
                _("Row %(row)d: a break has no blinds or ante; leave them at 0.") % values,
            )
        return clean
    if clean["small_blind_chips"] <= 0:
        raise _refuse("small_blind_missing", _("Row %(row)d: the small blind must be more than 0.") % values)
    if clean["big_blind_chips"] <= clean["small_blind_chips"]:
        raise _refuse(
            "big_blind_not_above_small",
            _(
                "Row %(row)d: the big blind (%(big_blind_chips)d) must be larger than "
                "the small blind (%(small_blind_chips)d)."
            )
            % values,
        )
    if clean["big_blind_ante"] and clean["ante_chips"] <= 0:
        raise _refuse(
            "big_blind_ante_missing", _("Row %(row)d: a big blind ante needs the ante amount.") % values
        )
    return clean


def validate_levels(levels: list[dict]) -> list[dict]:
    """TRN-7: a structure starts and ends with a level, big blind > small blind, and no level's
    small blind, big blind or ante is lower than the level before it (breaks are skipped)."""
    if not levels:
        raise _refuse("structure_empty", _("A structure needs at least one level."))
    if len(levels) > MAX_LEVELS:
        raise _refuse("structure_too_long", _("A structure has at most %d levels and breaks.") % MAX_LEVELS)
    clean = [validate_level(level, position=position) for position, level in enumerate(levels, start=1)]
    validate_sequence(clean)
    return clean


def validate_sequence(clean: list[dict]) -> None:
    """TRN-7 across levels: first and last are levels, and nothing decreases (breaks skipped)."""
    if clean[0]["kind"] == LevelKind.BREAK or clean[-1]["kind"] == LevelKind.BREAK:
        raise _refuse(
            "structure_break_at_edge", _("A structure must start and end with a level, not a break.")
        )
    previous = None
    for position, level in enumerate(clean, start=1):
        if level["kind"] == LevelKind.BREAK:
            continue
        if previous is not None:
            for key, label in (
                ("small_blind_chips", _("small blind")),
                ("big_blind_chips", _("big blind")),
                ("ante_chips", _("ante")),
            ):
                if level[key] < previous[key]:
                    raise _refuse(
                        "level_decreases",
                        _(
                            "Row %(row)d: the %(what)s goes down from %(before)d to %(after)d; "
                            "levels never decrease."
                        )
                        % {"row": position, "what": label, "before": previous[key], "after": level[key]},
                    )
        previous = level


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise _refuse("structure_name_required", _("Give the structure a name."))
    if len(name) > 120:
        raise _refuse("structure_name_too_long", _("The name is longer than 120 characters."))
    return name


def _write_levels(structure: BlindStructure, levels: list[dict]) -> None:
    StructureLevel.objects.bulk_create(
        StructureLevel(structure=structure, order=order, **level)
        for order, level in enumerate(levels, start=1)
    )


@transaction.atomic
def structure_create(
    *,
    actor,
    name: str,
    levels: list[dict],
    description: str = "",
    chip_set: ChipSet | None = None,
    now: datetime | None = None,
) -> BlindStructure:
    """A new template (managers configure structures, ROL-1). Refused whole if any level is wrong.
    It plays with `chip_set` (CHP-1), the house's default tournament chips when none is named."""
    require_role(actor, *MANAGER_ROLES)
    name = _clean_name(name)
    clean = validate_levels(levels)
    if BlindStructure.objects.filter(name__iexact=name).exists():
        raise Conflict(
            "structure_name_taken", _("A structure named “%s” exists already; choose another name.") % name
        )
    structure = BlindStructure.objects.create(
        name=name,
        description=description.strip(),
        chip_set=_tournament_chips(chip_set) or chip_set_default(kind=ChipSetKind.TOURNAMENT),
    )
    _write_levels(structure, clean)
    audit_record(
        actor=actor,
        action="structure.create",
        obj=structure,
        after={"name": name, "levels": clean},
        now=now or timezone.now(),
    )
    return structure


@transaction.atomic
def structure_update(
    *,
    actor,
    structure: BlindStructure,
    name: str | None = None,
    description: str | None = None,
    levels: list[dict] | None = None,
    chip_set: ChipSet | None = None,
    now: datetime | None = None,
) -> BlindStructure:
    """Rename or replace a template's levels, or name its chip set (CHP-1). Tournaments keep
    their own copies (TRN-7)."""
    require_role(actor, *MANAGER_ROLES)
    structure = BlindStructure.objects.select_for_update(of=("self",)).get(pk=structure.pk)
    before = {
        "name": structure.name,
        "description": structure.description,
        "levels": structure_levels_data(structure),
        "chip_set": structure.chip_set_id,
    }
    if chip_set is not None:
        structure.chip_set = _tournament_chips(chip_set)
    if name is not None:
        name = _clean_name(name)
        if BlindStructure.objects.filter(name__iexact=name).exclude(pk=structure.pk).exists():
            raise Conflict(
                "structure_name_taken",
                _("A structure named “%s” exists already; choose another name.") % name,
            )
        structure.name = name
    if description is not None:
        structure.description = description.strip()
    if levels is not None:
        clean = validate_levels(levels)
        structure.levels.all().delete()
        _write_levels(structure, clean)
    structure.save()
    audit_record(
        actor=actor,
        action="structure.update",
        obj=structure,
        before=before,
        after={
            "name": structure.name,
            "description": structure.description,
            "levels": structure_levels_data(structure),
            "chip_set": structure.chip_set_id,
        },
        now=now or timezone.now(),
    )
    return structure


def _tournament_chips(chip_set: ChipSet | None) -> ChipSet | None:
    if chip_set is not None and chip_set.kind != ChipSetKind.TOURNAMENT:
        raise DomainError(
            "not_tournament_chips", _("A blind structure plays with tournament chips."), rule="CHP-1"
        )
    return chip_set


def structure_import(
    *, actor, content: str, file_format: str, name: str = "", now: datetime | None = None
) -> BlindStructure:
    """A template from a CSV or JSON file; a JSON file may carry its own name."""
    if file_format == "csv":
        levels = structure_io.parse_csv(content)
    elif file_format == "json":
        file_name, levels = structure_io.parse_json(content)
        name = name or file_name
    else:
        raise _refuse("invalid_structure_format", _("Import a CSV or a JSON file."))
    return structure_create(actor=actor, name=name, levels=levels, now=now)
