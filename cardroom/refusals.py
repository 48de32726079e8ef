"""A refusal on a page, one way everywhere: the service's DomainError is shown as its message,
plain words that say what and why, and the house rule it names as a small link to the rule's
text in the rule book (`{% rule_link %}`, cardroom/house_rules.py). No rule ID is pasted into
the sentence; the API keeps the rule in its JSON body (cardroom.api.exception_handler).

- A view that answers with a redirect: `refuse(request, error)` (the next page's message).
- A form: `form.add_error(None, refusal(error))`; templates/form_errors.html draws the link.
- A template that shows an error itself: `{{ error.message }}{% rule_link error.rule %}`.
"""

from django.contrib import messages
from django.forms import ValidationError

from cardroom.errors import DomainError

# The message's extra tag that carries its rule (a message holds text and tags only).
RULE_TAG = "rule:"


def refuse(request, error: DomainError) -> None:
    """The refusal as the next page's error message, with its rule."""
    messages.error(request, error.message, extra_tags=f"{RULE_TAG}{error.rule}" if error.rule else "")


def refusal(error: DomainError) -> ValidationError:
    """The refusal as a form error that keeps its rule (Django keeps this very object)."""
    problem = ValidationError(error.message, code=error.code)
    problem.rule = error.rule
    return problem


def message_rule(message) -> str:
    """The rule a message was refused under, "" for none."""
    for tag in (getattr(message, "extra_tags", "") or "").split():
        if tag.startswith(RULE_TAG):
            return tag.removeprefix(RULE_TAG)
    return ""


def form_errors(errors) -> list[tuple[str, str]]:
    """A form's (or a field's) errors as (text, rule) pairs, for templates/form_errors.html."""
    pairs = []
    for problem in errors.as_data():
        for text in problem:
            pairs.append((text, getattr(problem, "rule", "")))
    return pairs
