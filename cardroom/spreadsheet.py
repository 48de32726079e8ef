"""Cells that a spreadsheet reads as what they are: the one place every export (the reports' CSV
and XLSX, a blind structure's CSV, a league's standings) makes its cells safe and typed.

A spreadsheet reads a cell that begins with `=`, `+`, `-` or `@` as a formula, and one that
begins with a tab or a carriage return can hide one; a player registered as
`=HYPERLINK("http://evil.example","Click")` would be a live link on the manager's screen, and
worse. In a CSV such a text cell gets a leading apostrophe, which spreadsheets show as text and
do not evaluate (OWASP's advice for CSV injection). In an XLSX the cell is written as a text
cell (never a formula) with Excel's "quote prefix" set, so the name shows as it is and stays
text even when someone edits the cell.

Numbers are not text: an amount of -12.50 must stay a number the spreadsheet adds up, so a cell
whose value is a real number (int or Decimal, as the exports hand them over) is left alone; in an
XLSX a Decimal is an amount in EUR with two decimals (#,##0.00). A date or a time is a real date
cell in the XLSX and ISO 8601 text in the CSV, both in the venue's time zone.
"""

import io
import re
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone
from openpyxl import Workbook
from openpyxl.utils import get_column_letter

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MONEY_FORMAT = "#,##0.00"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
DATE_FORMAT = "yyyy-mm-dd"
WIDEST_COLUMN = 60  # characters: a long note wraps off screen rather than push every column away


def formula_like(text: str) -> bool:
    """Whether a spreadsheet could read this text as (or hide) a formula."""
    return text.startswith(FORMULA_STARTS)


def spreadsheet_cell(value):
    """The value as a safe CSV cell: a number (int, Decimal) unchanged, None empty, a boolean as
    True/False, a time as 2026-03-01T21:30+01:00 in the venue's zone, a day as 2026-03-01,
    anything else as text with a leading apostrophe if it could start a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | Decimal):
        return value
    if isinstance(value, datetime):
        return (timezone.localtime(value) if timezone.is_aware(value) else value).isoformat(
            timespec="minutes"
        )
    if isinstance(value, date):
        return value.isoformat()
    text = str(value)
    return TEXT_MARK + text if formula_like(text) else text


def spreadsheet_row(values) -> list:
    return [spreadsheet_cell(value) for value in values]


def spreadsheet_text_read(text: str) -> str:
    """Undo spreadsheet_cell on a text cell read back from an exported file (a blind structure's
    CSV is imported again), so what was exported imports unchanged."""
    if text.startswith(TEXT_MARK) and formula_like(text[1:]):
        return text[1:]
    return text


def _xlsx_value(value) -> tuple[object, str | None, int]:
    """(cell value, number format, width in characters) of one XLSX cell. A time is naive in the
    venue's local time (XLSX has no time zones; the column's header names the zone)."""
    if value is None or value == "":
        return None, None, 0
    if isinstance(value, bool):
        return value, None, 5
    if isinstance(value, Decimal):
        return value, MONEY_FORMAT, len(f"{value:,.2f}")
    if isinstance(value, int):
        return value, None, len(str(value))
    if isinstance(value, datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return local.replace(tzinfo=None, second=0, microsecond=0), DATETIME_FORMAT, 16
    if isinstance(value, date):
        return value, DATE_FORMAT, 10
    text = str(value)
    return text, None, max((len(line) for line in text.splitlines()), default=0)


def _sheet_title(name: str, taken: set[str]) -> str:
    """A sheet's name as Excel allows it: 31 characters at most, none of []:*?/\\, unique."""
    title = re.sub(r"[\[\]:*?/\\]", "-", name)[:31] or "sheet"
    base, n = title, 2
    while title.lower() in taken:
        suffix = f"-{n}"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(title.lower())
    return title


def spreadsheet_xlsx(sheets: list[tuple[str, list[str], list[list]]]) -> bytes:
    """An XLSX workbook with one sheet per (name, header, rows) table: the header row in bold
    and frozen, columns as wide as their content, cells typed as _xlsx_value says and text cells
    never read as formulas. The rows are the very rows the CSV of the same table writes."""
    from openpyxl.styles import Font

    workbook = Workbook()
    workbook.remove(workbook.active)
    zone = timezone.get_current_timezone_name()
    taken: set[str] = set()
    for name, header, rows in sheets:
        sheet = workbook.create_sheet(_sheet_title(name, taken))
        cells = [[_xlsx_value(value) for value in row] for row in rows]
        timed = {i for row in rows for i, value in enumerate(row) if isinstance(value, datetime)}
        titles = [f"{title} ({zone})" if i in timed else str(title) for i, title in enumerate(header)]
        widths = [len(title) for title in titles]
        for column, title in enumerate(titles, start=1):
            cell = sheet.cell(row=1, column=column, value=title)
            cell.data_type, cell.font = "s", Font(bold=True)
        for r, row in enumerate(cells, start=2):
            for column, (value, number_format, width) in enumerate(row, start=1):
                cell = sheet.cell(row=r, column=column, value=value)
                if isinstance(value, str):
                    # openpyxl reads a text beginning with "=" as a formula: force text.
                    cell.data_type = "s"
                    cell.quotePrefix = formula_like(value)
                if number_format:
                    cell.number_format = number_format
                if column > len(widths):
                    widths.append(0)
                widths[column - 1] = max(widths[column - 1], width)
        for column, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(column)].width = min(width + 2, WIDEST_COLUMN)
        sheet.freeze_panes = "A2"
    if not workbook.worksheets:
        workbook.create_sheet("empty")
    body = io.BytesIO()
    workbook.save(body)
    return body.getvalue()
