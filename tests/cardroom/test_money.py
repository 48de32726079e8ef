from decimal import Decimal

import pytest
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.money import format_eur, parse_cents, require_positive


@pytest.mark.parametrize(
    ("text", "cents"),
    [("12", 1200), ("12.5", 1250), ("12,50", 1250), (" 1 234.05 ", 123405), (Decimal("0.01"), 1), (7, 700)],
)
def test_parse_cents(text, cents):
    assert parse_cents(text) == cents


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("12.345", "too_many_decimals"),
        ("abc", "invalid_amount"),
        ("NaN", "invalid_amount"),
        ("1e13", "amount_too_large"),
    ],
)
def test_parse_cents_refuses_what_would_need_rounding(text, code):
    with pytest.raises(DomainError) as error:
        parse_cents(text)
    assert error.value.code == code


def test_require_positive():
    assert require_positive(1) == 1
    for bad in (0, -100):
        with pytest.raises(DomainError) as error:
            require_positive(bad)
        assert error.value.code == "amount_not_positive"


def test_format_eur_per_locale():
    with translation.override("en"):
        assert format_eur(123450) == "1,234.50 EUR"
        assert format_eur(-5) == "-0.05 EUR"
    with translation.override("sk"):
        assert format_eur(123450) == "1\xa0234,50 EUR"
