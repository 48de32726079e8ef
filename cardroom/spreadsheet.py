"""Cells that a spreadsheet reads as what they are: the one place every export (the reports' CSV,
a blind structure's CSV, any later XLSX) makes its cells safe.

A spreadsheet reads a cell that begins with `=`, `+`, `-` or `@` as a formula, and one that
begins with a tab or a carriage return can hide one; a player registered as
`=HYPERLINK("http://evil.example","Click")` would be a live link on the manager's screen, and
worse. Text cells that begin so get a leading apostrophe, which spreadsheets show as text and do
not evaluate (OWASP's advice for CSV injection).

Numbers are not text: an amount of -12.50 must stay a number the spreadsheet adds up, so a cell
whose value is a real number (int or Decimal, as the exports hand them over) is left alone.
"""

from decimal import Decimal

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def spreadsheet_cell(value):
    """The value as a safe cell: a number (int, Decimal) unchanged, None empty, a boolean as
    True/False, anything else as text with a leading apostrophe if it could start a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | Decimal):
        return value
    text = str(value)
    return TEXT_MARK + text if text.startswith(FORMULA_STARTS) else text


def spreadsheet_row(values) -> list:
    return [spreadsheet_cell(value) for value in values]


def spreadsheet_text_read(text: str) -> str:
    """Undo spreadsheet_cell on a text cell read back from an exported file (a blind structure's
    CSV is imported again), so what was exported imports unchanged."""
    if text.startswith(TEXT_MARK) and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text
