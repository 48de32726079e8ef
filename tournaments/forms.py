from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import MoneyField
from tournaments.models import BlindStructure, GuaranteeMode
from tournaments.structure_io import MAX_FILE_CHARS


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class TournamentForm(forms.Form):
    """Times are typed in the venue's zone (the middleware activates it) and stored in UTC."""

    name = forms.CharField(label=_("Name"), max_length=120)
    structure = forms.ModelChoiceField(
        label=_("Blind structure"), queryset=BlindStructure.objects.order_by("name"), empty_label=None
    )
    start_at = forms.DateTimeField(label=_("Start time"), widget=DateTimeInput)
    prize_cents = MoneyField(label=_("Prize contribution (EUR)"))
    fee_cents = MoneyField(label=_("Fee (EUR)"))
    bounty_cents = MoneyField(label=_("Bounty (EUR)"), required=False)
    starting_stack_chips = forms.IntegerField(label=_("Starting stack (chips)"), min_value=1, initial=20000)
    min_players = forms.IntegerField(label=_("Minimum players to start"), min_value=2, initial=9)
    table_size = forms.IntegerField(label=_("Table size"), min_value=2, max_value=10, initial=9)
    late_registration_level = forms.IntegerField(
        label=_("Late registration until the end of level"), min_value=0, initial=6, help_text=_("0: none.")
    )
    max_reentries = forms.IntegerField(label=_("Re-entries per player"), min_value=0, initial=0)
    guarantee_mode = forms.ChoiceField(
        label=_("Guarantee"), choices=GuaranteeMode.choices, initial=GuaranteeMode.NONE
    )
    guarantee_cents = MoneyField(label=_("Guaranteed prize pool (EUR)"), required=False)
    guarantee_player_count = forms.IntegerField(
        label=_("Players needed for the guarantee"), min_value=2, initial=15, help_text=_("TRN-3, TRN-4")
    )
    guarantee_deadline_level = forms.IntegerField(
        label=_("Guarantee checked at the end of level"), min_value=1, initial=3
    )

    def clean(self):
        data = super().clean()
        data["bounty_cents"] = data.get("bounty_cents") or 0
        data["guarantee_cents"] = data.get("guarantee_cents") or 0
        return data


class StructureImportForm(forms.Form):
    file = forms.FileField(label=_("File (CSV or JSON)"))
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        required=False,
        help_text=_("Needed for CSV; a JSON file may carry its own."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        extension = upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
        if extension not in ("csv", "json"):
            raise forms.ValidationError(_("Choose a .csv or a .json file."))
        if upload.size > MAX_FILE_CHARS:
            raise forms.ValidationError(_("The file is too large for a blind structure."))
        try:
            content = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        return {"file_format": extension, "content": content}
