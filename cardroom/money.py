"""Money at the edges: integer cents inside, text with exactly two decimals outside.

Amounts are never floats. Parsing refuses anything that would need rounding, so a typo such as
"12.345" is an error the cashier sees, not a cent silently lost.
"""

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from cardroom.errors import DomainError

CURRENCY = "EUR"
# The largest amount the system accepts in one field: 10^12 cents (10 billion EUR). Anything
# larger is a typo or an attack, and it keeps every sum far inside a 64-bit integer.
MAX_CENTS = 10**12


def parse_cents(value: str | int | Decimal, *, field: str = "amount") -> int:
    """Parse "12.50", "12,50", 12 or Decimal("12.5") to cents; refuse more than two decimals."""
    if isinstance(value, bool):
        raise DomainError("invalid_amount", _("%(field)s is not an amount.") % {"field": field})
    if isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, Decimal):
        amount = value
    else:
        text = str(value).strip().replace(" ", "").replace("\u00a0", "").replace(",", ".")
        try:
            amount = Decimal(text)
        except InvalidOperation:
            raise DomainError(
                "invalid_amount",
                _("%(field)s is not an amount: %(value)s") % {"field": field, "value": value},
            ) from None
    if not amount.is_finite():
        raise DomainError("invalid_amount", _("%(field)s is not an amount.") % {"field": field})
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise DomainError(
            "too_many_decimals",
            _("%(field)s has more than two decimals: %(value)s EUR") % {"field": field, "value": value},
        )
    cents_int = int(cents)
    if abs(cents_int) > MAX_CENTS:
        raise DomainError("amount_too_large", _("%(field)s is too large.") % {"field": field})
    return cents_int


def require_positive(cents: int, *, field: str = "amount") -> int:
    """Refuse zero and negative amounts (every money movement is a positive sum)."""
    if cents <= 0:
        raise DomainError(
            "amount_not_positive", _("%(field)s must be more than 0.00 EUR.") % {"field": field}
        )
    if cents > MAX_CENTS:
        raise DomainError("amount_too_large", _("%(field)s is too large.") % {"field": field})
    return cents


def cents_to_decimal(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def format_eur(cents: int | None, *, with_currency: bool = True) -> str:
    """1,234.50 EUR in English, 1 234,50 EUR in Slovak: the active locale's separators."""
    if cents is None:
        return ""
    text = number_format(cents_to_decimal(cents), decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{text} {CURRENCY}" if with_currency else text
