"""Form plumbing shared by the page views: money and chip fields, the key of a money request,
the second look at a large amount, and DomainError as a form error."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.errors import DomainError
from cardroom.money import eur_in_words, format_chips, format_eur, parse_cents, parse_chips
from cardroom.refusals import refusal
from cardroom.selectors import venue_get


class DomainFormMixin:
    """A FormView whose `perform(form)` calls one service; a DomainError becomes a form error
    that links its rule, and nothing is written (the service's transaction rolled back)."""

    def perform(self, form):  # pragma: no cover - every view defines it
        raise NotImplementedError

    def form_valid(self, form):
        try:
            self.result = self.perform(form)
        except DomainError as error:
            form.add_error(None, refusal(error))
            return self.form_invalid(form)
        return super().form_valid(form)


class _TypedNumberField(forms.Field):
    """A number typed as text and read by cardroom.money's one parser (CAG-5)."""

    parse = staticmethod(parse_cents)
    input_mode = "decimal"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault(
            "widget",
            forms.TextInput(attrs={"inputmode": self.input_mode, "autocomplete": "off", "maxlength": 24}),
        )
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = str(value).strip() if value is not None else ""
        if value in self.empty_values:
            return None
        try:
            return self.parse(value, field=str(self.label or _("Amount")))
        except DomainError as error:
            raise refusal(error) from None


class MoneyField(_TypedNumberField):
    """An amount in EUR typed as text in the locale's way ("1,500.50", "1 500,50"); cleans to
    integer cents. `confirm_large=False` for settings, which are not money changing hands."""

    def __init__(self, *args, confirm_large: bool = True, **kwargs):
        self.confirm_large = confirm_large
        super().__init__(*args, **kwargs)

    def prepare_value(self, value):
        # Initial values are cents; what the person typed comes back as typed.
        return format_eur(value, with_currency=False) if isinstance(value, int) else value


class ChipsField(_TypedNumberField):
    """A chip count typed as text ("25,000", "25 000"); cleans to a whole number of chips."""

    parse = staticmethod(parse_chips)
    input_mode = "numeric"

    def prepare_value(self, value):
        return format_chips(value) if isinstance(value, int) else value


class AmountsForm(forms.Form):
    """A form whose amounts are checked twice when large (CAG-5): an amount over the venue's
    confirm threshold is shown back in figures and words, and the form goes through only when
    it is sent again with that amount confirmed (a hidden `confirm_<field>` holding the cents).
    Changing the amount asks again."""

    def clean(self):
        data = super().clean()
        threshold = venue_get().confirm_threshold_cents
        self.large_amounts = [
            {
                "name": name,
                "label": field.label,
                "cents": data[name],
                "figures": format_eur(data[name]),
                "words": eur_in_words(data[name]),
            }
            for name, field in self.fields.items()
            if isinstance(field, MoneyField)
            and field.confirm_large
            and isinstance(data.get(name), int)
            and data[name] > threshold
            and self.data.get(f"confirm_{name}") != str(data[name])
        ]
        if self.large_amounts:
            raise forms.ValidationError(
                _("Large amount: check it and tap Confirm to go on."), code="confirm_large_amount"
            )
        return data


class MoneyRequestForm(AmountsForm):
    """A form that moves money: its key is drawn when the form is shown and travels as a hidden
    field, so a double tap or a resubmitted page is one transaction (CAG-2)."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=80)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = f"page-{uuid.uuid4().hex}"


class DateInput(forms.DateInput):
    input_type = "date"
