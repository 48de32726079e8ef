"""Form plumbing shared by the page views."""

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.errors import DomainError
from cardroom.money import parse_cents


class DomainFormMixin:
    """A FormView whose `perform(form)` calls one service; a DomainError becomes a form error
    that names the rule, and nothing is written (the service's transaction rolled back)."""

    def perform(self, form):  # pragma: no cover - every view defines it
        raise NotImplementedError

    def form_valid(self, form):
        try:
            self.result = self.perform(form)
        except DomainError as error:
            form.add_error(None, str(error))
            return self.form_invalid(form)
        return super().form_valid(form)


class MoneyField(forms.Field):
    """An amount in EUR typed as text ("12.50" or "12,50"); cleans to integer cents."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "maxlength": 20})
        )
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = str(value).strip() if value is not None else ""
        if value in self.empty_values:
            return None
        try:
            return parse_cents(value, field=str(self.label or _("Amount")))
        except DomainError as error:
            raise forms.ValidationError(error.message) from None


class DateInput(forms.DateInput):
    input_type = "date"
