import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import MoneyField
from cashier.models import PaymentMethod, TransactionKind


class IdempotentForm(forms.Form):
    """Carries a key made when the form is shown, so a double tap posts once (CAG-2)."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=80)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, **kwargs)


class ShiftOpenForm(forms.Form):
    opening_float = MoneyField(label=_("Counted opening float (EUR)"))


DENOMINATIONS_CENTS = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1]


class ShiftCloseForm(forms.Form):
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


class TransactionForm(IdempotentForm):
    kind = forms.ChoiceField(label=_("Transaction"), choices=TransactionKind.choices)
    player = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, error_messages={"required": _("Choose the player.")}
    )
    amount = MoneyField(label=_("Amount (EUR)"), required=False)
    method = forms.ChoiceField(label=_("Payment"), choices=PaymentMethod.choices, initial=PaymentMethod.CASH)
    reference = forms.RegexField(
        label=_("Cash-game table"),
        regex=r"^[a-z_]{1,20}:[0-9]{1,18}$",
        required=False,
        help_text=_('e.g. "table:4"'),
    )
    tournament = forms.IntegerField(label=_("Tournament number"), min_value=1, required=False)
    prize = MoneyField(label=_("Prize pool part (EUR)"), required=False)
    fee = MoneyField(label=_("Fee (EUR)"), required=False)
    bounty = MoneyField(label=_("Bounty (EUR)"), required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class ReversalRequestForm(forms.Form):
    reason = forms.CharField(label=_("Why must it be reversed?"), max_length=2000)
