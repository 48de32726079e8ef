"""cardroom.spreadsheet: the one function every export (CSV now, XLSX later) makes its cells
safe with. Text that a spreadsheet would read as a formula gets an apostrophe; numbers stay
numbers, negative ones too."""

from decimal import Decimal

import pytest

from cardroom.spreadsheet import spreadsheet_cell, spreadsheet_row, spreadsheet_text_read


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ('=HYPERLINK("http://evil.example","Prize")', '\'=HYPERLINK("http://evil.example","Prize")'),
        ("+421 900 000 000", "'+421 900 000 000"),
        ("-5 bounty", "'-5 bounty"),
        ("-12.50", "'-12.50"),  # text that looks like a number is still text: it was typed
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Anna Nováková", "Anna Nováková"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_text_that_could_start_a_formula_is_marked_as_text(text, cell):
    assert spreadsheet_cell(text) == cell
    assert spreadsheet_text_read(cell) == text


def test_numbers_stay_numbers():
    assert spreadsheet_cell(Decimal("-12.50")) == Decimal("-12.50")
    assert spreadsheet_cell(-3) == -3
    assert spreadsheet_cell(0) == 0
    assert spreadsheet_row([Decimal("-0.50"), 7, None, True, "=1"]) == [
        Decimal("-0.50"),
        7,
        "",
        "True",
        "'=1",
    ]


def test_only_the_exports_own_mark_is_read_back():
    assert spreadsheet_text_read("'quoted") == "'quoted"
    assert spreadsheet_text_read("'") == "'"
