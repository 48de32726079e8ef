"""Money and chips at the edges: integer cents and whole chips inside, text outside (CAG-5).

One parser reads every amount and chip count staff type, in pages and in the API. It reads an
amount exactly or refuses it; it never rounds and never guesses. Separators are read in the
active locale's convention (English: `1,500.50`; Slovak: `1 500,50`, also `1.500,50`), and a
text written in the other convention is read in that one when it can mean nothing else (a
Slovak `12,50` on an English page is 12.50 EUR). A text that could mean two amounts is refused
with both readings shown: in English `1.500` is either 1.50 EUR or 1,500.00 EUR.
"""

import re
from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import get_format, number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cardroom.errors import DomainError

CURRENCY = "EUR"
# The largest amount the system accepts in one field: 10^12 cents (10 billion EUR). Anything
# larger is a typo or an attack, and it keeps every sum far inside a 64-bit integer.
MAX_CENTS = 10**12
MAX_CHIPS = 10**12

# What people type between digit groups besides the locale's own separator: spaces of any width.
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009]+")
_CURRENCY_MARKS = re.compile(r"^(€|eur)\s*|\s*(€|eur)$", re.IGNORECASE)
_DIGITS_AND_SEPARATORS = re.compile(r"^[0-9., ]+$")


@dataclass(frozen=True)
class _Convention:
    """How one way of writing numbers separates decimals and thousands."""

    decimal: str
    groups: str  # characters allowed between groups of three digits


_DOT_DECIMAL = _Convention(decimal=".", groups=", ")
_COMMA_DECIMAL = _Convention(decimal=",", groups=". ")


def _locale_conventions() -> tuple[_Convention, _Convention]:
    """The active locale's convention first, the other second."""
    if get_format("DECIMAL_SEPARATOR") == ",":
        return _COMMA_DECIMAL, _DOT_DECIMAL
    return _DOT_DECIMAL, _COMMA_DECIMAL


def _read(text: str, convention: _Convention, decimals: int) -> int | None:
    """`text` (digits, separators, single spaces) read in one convention, scaled to the unit
    (cents for decimals=2, chips for 0), or None when it is not a number written that way."""
    whole, _sep, fraction = text.partition(convention.decimal)
    if _sep and (not fraction or not fraction.isdigit() or len(fraction) > decimals):
        return None
    if not whole:
        return None
    groups = re.split(f"[{re.escape(convention.groups)}]", whole)
    if len(groups) > 1:
        separators = set(re.findall(f"[{re.escape(convention.groups)}]", whole))
        if len(separators) > 1:  # "1.500 000" mixes two kinds of grouping
            return None
        if not (1 <= len(groups[0]) <= 3 and all(len(group) == 3 for group in groups[1:])):
            return None
    digits = "".join(groups)
    if not digits.isdigit():
        return None
    return int(digits) * 10**decimals + (int(fraction.ljust(decimals, "0")) if fraction else 0)


def _parse(value, *, field: str, decimals: int, limit: int) -> int:
    """The shared parser behind parse_cents and parse_chips."""
    if isinstance(value, bool):
        raise DomainError("invalid_amount", _("%(field)s is not an amount.") % {"field": field}, rule="CAG-5")
    if isinstance(value, int):
        number = value * 10**decimals
    elif isinstance(value, Decimal):
        if not value.is_finite() or (value * 10**decimals) != (value * 10**decimals).to_integral_value():
            raise DomainError(
                "too_many_decimals",
                _("%(field)s must be exact: %(value)s") % {"field": field, "value": value},
                rule="CAG-5",
            )
        number = int(value * 10**decimals)
    else:
        number = _parse_text(str(value), field=field, decimals=decimals)
    if abs(number) > limit:
        raise DomainError("amount_too_large", _("%(field)s is too large.") % {"field": field}, rule="CAG-5")
    return number


def _parse_text(raw: str, *, field: str, decimals: int) -> int:
    text = _CURRENCY_MARKS.sub("", raw.strip()) if decimals else raw.strip()
    negative = text.startswith("-")
    text = _SPACES.sub(" ", text.lstrip("+-").strip())
    if not text or not _DIGITS_AND_SEPARATORS.match(text):
        raise DomainError(
            "invalid_amount",
            _("%(field)s is not a number: %(value)s") % {"field": field, "value": raw},
            rule="CAG-5",
        )
    mine, other = _locale_conventions()
    in_mine, in_other = _read(text, mine, decimals), _read(text, other, decimals)
    # The locale's decimal separator alone, followed by exactly three digits: "1.500" in English
    # is 1.50 EUR with a digit too many, or 1,500 EUR in the other convention. Refused.
    if decimals and in_mine is None and in_other is not None:
        whole, sep, fraction = text.partition(mine.decimal)
        if sep and len(fraction) == 3 and fraction.isdigit() and whole.isdigit():
            exact = int(fraction) % 10 ** (3 - decimals) == 0
            as_decimal = int(whole) * 10**decimals + int(fraction) // 10 ** (3 - decimals)
            raise DomainError(
                "ambiguous_amount",
                _(
                    "“%(value)s” could mean %(first)s or %(second)s. Type it again without "
                    "the doubt, e.g. %(example)s."
                )
                % {
                    "value": raw.strip(),
                    "first": format_eur(as_decimal) if exact else _("an amount with three decimals"),
                    "second": format_eur(in_other),
                    "example": number_format(Decimal(in_other) / 10**decimals, decimal_pos=0),
                },
                rule="CAG-5",
            )
    number = in_mine if in_mine is not None else in_other
    if number is None:
        whole, sep, fraction = text.partition(mine.decimal)
        if decimals and sep and fraction.isdigit() and len(fraction) > decimals:
            message = _("%(field)s has more than two decimals: %(value)s") % {"field": field, "value": raw}
            raise DomainError("too_many_decimals", message, rule="CAG-5")
        if not decimals and re.search(r"[.,][0-9]{1,2}$", text):
            message = _("%(field)s must be a whole number of chips: %(value)s") % {
                "field": field,
                "value": raw,
            }
            raise DomainError("chips_not_whole", message, rule="CAG-5")
        raise DomainError(
            "invalid_amount",
            _("%(field)s is not a number we can read exactly: %(value)s. Type digits, e.g. %(example)s.")
            % {
                "field": field,
                "value": raw,
                "example": "1500" if not decimals else format_eur(150050, with_currency=False),
            },
            rule="CAG-5",
        )
    return -number if negative else number


def parse_cents(value: str | int | Decimal, *, field: str = "amount") -> int:
    """An amount in EUR ("1,500.50", "1 500,50", 1500, Decimal("12.5")) as integer cents.
    Read in the active locale (CAG-5); more than two decimals, or a text that could mean two
    amounts, is refused."""
    return _parse(value, field=field, decimals=2, limit=MAX_CENTS)


def parse_chips(value: str | int, *, field: str = "chips") -> int:
    """A chip count ("25,000", "25 000", "25.000", 25000) as a whole number (CAG-5). Chip
    counts have no decimals, so every grouping reads the same in every locale."""
    return _parse(value, field=field, decimals=0, limit=MAX_CHIPS)


def require_positive(cents: int, *, field: str = "amount") -> int:
    """Refuse zero and negative amounts (every money movement is a positive sum)."""
    if cents <= 0:
        raise DomainError(
            "amount_not_positive", _("%(field)s must be more than 0.00 EUR.") % {"field": field}, rule="CAG-5"
        )
    if cents > MAX_CENTS:
        raise DomainError("amount_too_large", _("%(field)s is too large.") % {"field": field}, rule="CAG-5")
    return cents


def cents_to_decimal(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def format_eur(cents: int | None, *, with_currency: bool = True) -> str:
    """1,234.50 EUR in English, 1 234,50 EUR in Slovak: the active locale's separators. The
    one money format of every page and message."""
    if cents is None:
        return ""
    text = number_format(cents_to_decimal(cents), decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{text} {CURRENCY}" if with_currency else text


def format_chips(chips: int | None) -> str:
    """25,000 in English, 25 000 in Slovak: the one chip-count format."""
    if chips is None:
        return ""
    return number_format(chips, decimal_pos=0, use_l10n=True, force_grouping=True)


def eur_in_words(cents: int) -> str:
    """The amount written out in the active language, for the second look at a large amount
    (CAG-5): "one thousand, five hundred euro, fifty cents"."""
    from num2words import num2words

    language = (get_language() or "en").split("-")[0]
    try:
        return num2words(cents, lang=language, to="currency", currency="EUR")
    except NotImplementedError:
        return num2words(cents, lang="en", to="currency", currency="EUR")
