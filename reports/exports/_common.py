"""The cells every exported table of the reports shares (__init__.py and tournament_tables.py): a
table's type, amounts and per cents as numbers, times in the venue's zone. The CSV and the XLSX
of a table are written from the same rows (cardroom.spreadsheet)."""

from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from cardroom.money import cents_to_decimal

Table = tuple[list[str], list[list]]


def money(cents: int | None) -> Decimal | str:
    """-1250 -> Decimal("-12.50"), written -12.50; no amount: an empty cell."""
    return "" if cents is None else cents_to_decimal(cents)


def percent(basis_points: int | None) -> Decimal | str:
    """1250 -> Decimal("12.50") (per cent, two decimals), without floats."""
    return "" if basis_points is None else cents_to_decimal(basis_points)


def local(moment) -> datetime | str:
    """The moment in the venue's zone: a time cell (ISO 8601 text in the CSV, a date-time cell in
    the XLSX, cardroom.spreadsheet); no moment: an empty cell."""
    return timezone.localtime(moment) if moment else ""
