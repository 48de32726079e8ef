"""The loyalty pages' forms: a comp at the desk, the venue's terms, a rate and a tier."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from loyalty.models import LoyaltySettings

COMP_CHOICES = [("voucher", _("Food and drink voucher")), ("ticket", _("Tournament ticket"))]


class RedeemForm(forms.Form):
    comp = forms.ChoiceField(label=_("Comp"), choices=COMP_CHOICES)
    # Typed text, read by the one money parser in the service ("12,50", "1,500").
    value = forms.CharField(label=_("Voucher value (EUR)"), required=False, max_length=24)
    tournament = forms.IntegerField(label=_("Tournament"), required=False)
    note = forms.CharField(label=_("Note"), required=False, max_length=200)
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=80)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = f"page-{uuid.uuid4().hex}"


class SettingsForm(forms.ModelForm):
    class Meta:
        model = LoyaltySettings
        fields = [
            "default_points_per_hour",
            "entry_points",
            "entry_points_per_100_eur",
            "value_cents",
            "value_points",
            "tier_period_days",
            "expiry_months",
        ]


class RateForm(forms.Form):
    game = forms.IntegerField(widget=forms.HiddenInput)
    points_per_hour = forms.IntegerField(label=_("points per hour"), required=False, min_value=0)


class TierForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=60)
    min_points = forms.IntegerField(label=_("points in the period at least"), min_value=0)
