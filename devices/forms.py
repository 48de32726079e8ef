from django import forms
from django.utils.translation import gettext_lazy as _

from cashgame.forms import BUTTON_NOT_IN_PLAY, SEAT_CHOICES
from cashgame.models import CashTable


class PairingCodeForm(forms.Form):
    """A manager picks the table a new tablet will serve."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=CashTable.objects.none(), empty_label=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = CashTable.objects.select_related("game").order_by("number")


class PairForm(forms.Form):
    """The tablet types the code the manager's screen shows."""

    code = forms.CharField(
        label=_("Pairing code"),
        max_length=20,
        error_messages={
            "required": _("Pairing code: type the 8 letters and digits the manager reads you."),
            "max_length": _("Pairing code: it has 8 letters and digits (like ABCD-EFGH)."),
        },
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autofocus": True,
            }
        ),
    )


class NewHandForm(forms.Form):
    """The button, moved by a tap on a seat; every player in play is dealt in (no choice)."""

    button_seat = forms.TypedChoiceField(
        label=_("Button"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "-"), *SEAT_CHOICES],
        error_messages={"invalid_choice": BUTTON_NOT_IN_PLAY},
    )
