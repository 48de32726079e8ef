from django import forms
from django.utils.translation import gettext_lazy as _


class SendForm(forms.Form):
    table = forms.CharField(label=_("Table"), max_length=12)


class DealerAddForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
