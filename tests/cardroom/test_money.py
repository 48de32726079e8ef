"""CAG-5: every amount and chip count staff type is read exactly, in the locale that writes it,
or refused with the readings shown; nothing is rounded."""

from decimal import Decimal

import pytest
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.money import eur_in_words, format_chips, format_eur, parse_cents, parse_chips, require_positive


@pytest.mark.parametrize(
    ("language", "text", "cents"),
    [
        ("en", "1,500", 150000),
        ("en", "1 500", 150000),
        ("en", "1\u00a0500", 150000),
        ("en", "1500", 150000),
        ("en", "1,500.50", 150050),
        ("en", "1.500,00", 150000),  # only one way to read it: European grouping
        ("en", "12,50", 1250),  # a Slovak decimal comma on an English page
        ("en", "12.5", 1250),
        ("en", "0.05", 5),
        ("en", "1,234,567.89", 123456789),
        ("en", "€ 1 500", 150000),
        ("en", "1500 EUR", 150000),
        ("sk", "1 500", 150000),
        ("sk", "1\u00a0500,00", 150000),
        ("sk", "1.500,00", 150000),
        ("sk", "1.500", 150000),
        ("sk", "1500", 150000),
        ("sk", "12,50", 1250),
        ("sk", "12.50", 1250),  # an English decimal point on a Slovak page
        ("sk", "0,05", 5),
    ],
)
def test_amounts_read_in_the_locale_that_writes_them__CAG_5(language, text, cents):
    with translation.override(language):
        assert parse_cents(text) == cents


@pytest.mark.parametrize(
    ("language", "text", "message"),
    [
        ("en", "1.500", "“1.500” could mean 1.50 EUR or 1,500.00 EUR"),
        ("en", "12.345", "“12.345” could mean an amount with three decimals or 12,345.00 EUR"),
        ("sk", "1,500", "„1,500“ môže znamenať 1,50 EUR alebo 1\u00a0500,00 EUR"),
    ],
)
def test_an_amount_that_could_mean_two_is_refused_with_both_readings__CAG_5(language, text, message):
    with translation.override(language), pytest.raises(DomainError) as error:
        parse_cents(text)
    assert error.value.code == "ambiguous_amount"
    assert error.value.rule == "CAG-5"
    assert error.value.message.startswith(message)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("abc", "invalid_amount"),
        ("NaN", "invalid_amount"),
        ("1e13", "invalid_amount"),
        ("1,50,0", "invalid_amount"),
        ("15 00", "invalid_amount"),
        ("1.500 000", "invalid_amount"),
        ("12.3456", "too_many_decimals"),
        ("99999999999", "amount_too_large"),
    ],
)
def test_what_cannot_be_read_exactly_is_refused__CAG_5(text, code):
    with translation.override("en"), pytest.raises(DomainError) as error:
        parse_cents(text)
    assert error.value.code == code


def test_numbers_from_code_are_exact(db):
    assert parse_cents(7) == 700
    assert parse_cents(Decimal("0.01")) == 1
    with pytest.raises(DomainError):
        parse_cents(Decimal("0.001"))
    with pytest.raises(DomainError):
        parse_cents(True)


@pytest.mark.parametrize("language", ["en", "sk"])
@pytest.mark.parametrize(
    ("text", "chips"), [("25,000", 25000), ("25 000", 25000), ("25.000", 25000), ("25000", 25000)]
)
def test_chip_counts_read_with_any_grouping__CAG_5(language, text, chips):
    with translation.override(language):
        assert parse_chips(text) == chips


def test_chip_counts_are_whole__CAG_5():
    with pytest.raises(DomainError) as error:
        parse_chips("25,5")
    assert error.value.code == "chips_not_whole"


def test_require_positive():
    assert require_positive(1) == 1
    for bad in (0, -100):
        with pytest.raises(DomainError) as error:
            require_positive(bad)
        assert error.value.code == "amount_not_positive"


def test_one_money_and_chip_format_per_locale():
    with translation.override("en"):
        assert format_eur(123450) == "1,234.50 EUR"
        assert format_eur(-5) == "-0.05 EUR"
        assert format_chips(25000) == "25,000"
    with translation.override("sk"):
        assert format_eur(123450) == "1\xa0234,50 EUR"
        assert format_chips(25000) == "25\xa0000"


def test_large_amounts_in_words_per_locale__CAG_5():
    with translation.override("en"):
        assert eur_in_words(150050) == "one thousand, five hundred euro, fifty cents"
    with translation.override("sk"):
        assert eur_in_words(150000) == "tisícpäťsto eur, nula centov"
