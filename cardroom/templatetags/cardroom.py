from django import template

from cardroom.money import format_chips, format_eur

register = template.Library()


@register.filter
def eur(cents):
    """{{ amount_cents|eur }} -> "1,234.50 EUR" (the active locale's separators)."""
    return format_eur(cents)


@register.filter
def chips(count):
    """{{ count|chips }} -> "25,000" ("25 000" in Slovak): a number of chips."""
    return format_chips(count)


@register.simple_tag(takes_context=True)
def query_with(context, **params):
    """The current query string with some parameters replaced (for pagination links)."""
    query = context["request"].GET.copy()
    for key, value in params.items():
        query[key] = value
    return query.urlencode()
