"""Formatting for the report pages: hours, signed amounts and percentage changes."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from cardroom.money import format_eur

register = template.Library()


@register.filter
def hours(minutes):
    """Minutes as hours and minutes: 570 -> "9 h 30 min"."""
    if minutes is None:
        return ""
    return _("%(hours)s h %(minutes)02d min") % {
        "hours": number_format(minutes // 60, use_l10n=True, force_grouping=True),
        "minutes": minutes % 60,
    }


@register.filter
def count(value):
    """A whole number with the locale's thousands separator: 119650 -> "119,650"."""
    if value is None or value == "":
        return ""
    return number_format(value, use_l10n=True, force_grouping=True)


@register.filter
def amount(cents):
    """EUR with two decimals without the currency, for table cells under an "in EUR" caption."""
    return format_eur(cents, with_currency=False)


@register.filter
def signed_eur(cents):
    """A change in EUR with its sign: "+12.50 EUR", "-3.00 EUR", "0.00 EUR"."""
    if cents is None:
        return ""
    return f"+{format_eur(cents)}" if cents > 0 else format_eur(cents)


@register.filter
def signed_amount(cents):
    """A change with its sign, without the currency: "+12.50", "-3.00"."""
    if cents is None:
        return ""
    text = format_eur(cents, with_currency=False)
    return f"+{text}" if cents > 0 else text


@register.filter
def percent_bp(basis_points):
    """A change in basis points as a percentage with one decimal: 1250 -> "+12.5 %"."""
    if basis_points is None:
        return "—"
    tenths = abs(basis_points) // 10
    text = number_format(f"{tenths // 10}.{tenths % 10}", decimal_pos=1, use_l10n=True)
    sign = "+" if basis_points > 0 else "-" if basis_points < 0 else ""
    return f"{sign}{text} %"
