"""Blind structures as files: CSV and JSON, in and out (TRN-7).

Plain functions on plain values (lists of level dicts); the services validate what comes in.
The columns and keys are the model's field names, so a file exported here imports unchanged:

    kind,small_blind_chips,big_blind_chips,ante_chips,big_blind_ante,minutes,note
    level,25,50,0,false,20,
    break,0,0,0,false,10,Colour up the 25 chips
"""

import csv
import io
import json

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.parsers import UnsafeJSON, json_loads, nul_refused
from cardroom.spreadsheet import spreadsheet_cell, spreadsheet_text_read, spreadsheet_xlsx

COLUMNS = ["kind", "small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante", "minutes", "note"]
INTEGER_COLUMNS = ["small_blind_chips", "big_blind_chips", "ante_chips", "minutes"]
TRUE_WORDS = {"1", "true", "yes", "y", "x"}
FALSE_WORDS = {"", "0", "false", "no", "n"}
MAX_FILE_CHARS = 200_000


def _invalid(message: str) -> DomainError:
    return DomainError("invalid_structure_file", message, rule="TRN-7")


def _integer(value, *, row: int, column: str) -> int:
    if isinstance(value, bool):
        raise _invalid(_("Row %(row)d: %(column)s must be a whole number.") % {"row": row, "column": column})
    if isinstance(value, int):
        return value
    text = str(value if value is not None else "").strip()
    if text == "":
        return 0
    if not text.isdigit():
        raise _invalid(
            _("Row %(row)d: %(column)s must be a whole number of chips or minutes, not “%(value)s”.")
            % {"row": row, "column": column, "value": text[:20]}
        )
    return int(text)


def _boolean(value, *, row: int) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value if value is not None else "").strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    # The file's own words stay as they are written in it (no language).
    message = _("Row %(row)d: %(column)s must be %(true)s or %(false)s.")
    raise _invalid(message % {"row": row, "column": "big_blind_ante", "true": "true", "false": "false"})


def _level(raw: dict, *, row: int) -> dict:
    if not isinstance(raw, dict):
        raise _invalid(_("Row %(row)d is not a level.") % {"row": row})
    unknown = set(raw) - set(COLUMNS)
    if unknown:
        raise _invalid(
            _("Row %(row)d has unknown columns: %(columns)s.")
            % {"row": row, "columns": ", ".join(sorted(unknown))}
        )
    kind = str(raw.get("kind") or "level").strip().lower()
    level = {"kind": kind}
    for column in INTEGER_COLUMNS:
        level[column] = _integer(raw.get(column), row=row, column=column)
    level["big_blind_ante"] = _boolean(raw.get("big_blind_ante"), row=row)
    # A note that could start a formula was exported with an apostrophe before it.
    level["note"] = spreadsheet_text_read(str(raw.get("note") or "").strip())
    return level


def parse_csv(text: str) -> list[dict]:
    """Levels from CSV text with a header row naming the columns (any order, `note` optional)."""
    if len(text) > MAX_FILE_CHARS:
        raise _invalid(_("The file is too large for a blind structure."))
    if "\x00" in text:
        raise _invalid(nul_refused().message)
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = {"small_blind_chips", "big_blind_chips", "minutes"} - set(header)
    if missing:
        raise _invalid(_("The CSV header lacks the columns: %s.") % ", ".join(sorted(missing)))
    reader.fieldnames = header
    levels = []
    for row, raw in enumerate(reader, start=1):
        if None in raw:
            raise _invalid(_("Row %(row)d has more values than the header.") % {"row": row})
        if not any((value or "").strip() for value in raw.values()):
            continue
        levels.append(_level(raw, row=row))
    return levels


def parse_json(text: str) -> tuple[str, list[dict]]:
    """(name, levels) from JSON: {"name": ..., "levels": [...]} or a bare list of levels."""
    if len(text) > MAX_FILE_CHARS:
        raise _invalid(_("The file is too large for a blind structure."))
    try:
        data = json_loads(text)
    except UnsafeJSON as error:
        raise _invalid(error.message) from None
    except ValueError as error:
        raise _invalid(_("The file is not valid JSON: %s") % error) from None
    name = ""
    if isinstance(data, dict):
        name = str(data.get("name") or "").strip()
        data = data.get("levels")
    if not isinstance(data, list):
        raise _invalid(_("The JSON must hold a list of levels."))
    return name, [_level(raw, row=row) for row, raw in enumerate(data, start=1)]


def to_csv(levels: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for level in levels:
        row = {**level, "big_blind_ante": "true" if level["big_blind_ante"] else "false"}
        writer.writerow({column: spreadsheet_cell(value) for column, value in row.items()})
    return out.getvalue()


def to_xlsx(levels: list[dict]) -> bytes:
    """The CSV's columns and rows as one XLSX sheet: chips and minutes as number cells, the big
    blind ante as a true/false cell, the note as text (cardroom.spreadsheet)."""
    rows = [[level[column] for column in COLUMNS] for level in levels]
    return spreadsheet_xlsx([("levels", COLUMNS, rows)])


def to_json(name: str, levels: list[dict]) -> str:
    return json.dumps({"name": name, "levels": levels}, ensure_ascii=False, indent=2) + "\n"
