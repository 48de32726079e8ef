from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import AmountsForm, MoneyField


class ShiftOpenForm(AmountsForm):
    opening_float = MoneyField(label=_("Counted opening float (EUR)"))


DENOMINATIONS_CENTS = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1]


class ShiftCloseForm(AmountsForm):
    """Count by denomination, or type the total: the pieces win when both are given and agree."""

    counted = MoneyField(label=_("Counted total (EUR)"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for cents in DENOMINATIONS_CENTS:
            label = f"{cents // 100}" if cents >= 100 else f"0.{cents:02d}"
            self.fields[f"d_{cents}"] = forms.IntegerField(
                label=f"{label} EUR",
                min_value=0,
                max_value=1_000_000,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
            )

    def denominations(self) -> dict | None:
        pieces = {str(c): self.cleaned_data.get(f"d_{c}") for c in DENOMINATIONS_CENTS}
        pieces = {k: v for k, v in pieces.items() if v}
        return pieces or None


class ReversalRequestForm(forms.Form):
    reason = forms.CharField(label=_("Why must it be reversed?"), max_length=2000)
