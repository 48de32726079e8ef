from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from cardroom import refusals
from cardroom.house_rules import rule_title, rule_url
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


@register.simple_tag
def rule_link(rule: str):
    """A refusal's rule as a small link in words to its text in the rule book ("House rule:
    Table stakes"); nothing for no rule, or for an ID the rule book does not hold."""
    title = rule_title(rule) if rule else ""
    if not title:
        return ""
    return format_html(
        ' <a class="rule-link" href="{}">{}</a>',
        rule_url(rule),
        _("House rule: %(title)s") % {"title": title},
    )


@register.filter
def message_rule(message) -> str:
    """{{ message|message_rule }}: the rule a page's error message was refused under."""
    return refusals.message_rule(message)


@register.filter
def with_rules(errors) -> list[tuple[str, str]]:
    """{% for text, rule in form.non_field_errors|with_rules %}: each error with its rule."""
    return refusals.form_errors(errors)
