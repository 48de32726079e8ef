from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import DateInput
from cardroom.names import validate_person_name
from players.models import ExclusionStatus, IdDocumentType, Player


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=80, validators=[validate_person_name])
    last_name = forms.CharField(label=_("Last name"), max_length=80, validators=[validate_person_name])
    nickname = forms.CharField(
        label=_("Nickname"), max_length=80, required=False, validators=[validate_person_name]
    )
    date_of_birth = forms.DateField(label=_("Date of birth"), widget=DateInput)
    card_number = forms.RegexField(
        label=_("Membership card"),
        regex=r"^[0-9A-Za-z-]{0,20}$",
        required=False,
        help_text=_("Leave empty to assign the next number."),
    )
    id_document_type = forms.ChoiceField(
        label=_("ID document type"), choices=[("", "—"), *IdDocumentType.choices], required=False
    )
    id_document_number = forms.CharField(label=_("ID document number"), max_length=40, required=False)
    notes = forms.CharField(label=_("Notes"), widget=forms.Textarea(attrs={"rows": 3}), required=False)
    public_full_name = forms.BooleanField(
        label=_("Show the full name on the room's screens and phone pages"),
        required=False,
        help_text=_("Only if the player asks for it; otherwise they show the player's nickname or initials."),
    )

    @classmethod
    def initial_for(cls, player: Player) -> dict:
        return {name: getattr(player, name) for name in cls.base_fields}


class ExclusionForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Exclusion"),
        choices=[
            (ExclusionStatus.SELF_EXCLUDED, ExclusionStatus.SELF_EXCLUDED.label),
            (ExclusionStatus.REGISTER, ExclusionStatus.REGISTER.label),
        ],
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))
    excluded_from = forms.DateField(label=_("From"), widget=DateInput)
    excluded_until = forms.DateField(label=_("Until"), widget=DateInput, required=False)


class LiftExclusionForm(forms.Form):
    reason = forms.CharField(label=_("Reason for lifting"), max_length=2000)


class ErasureForm(forms.Form):
    """GDP-1: the player's request, recorded with the erasure."""

    request = forms.CharField(
        label=_("The player's request"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("How and when the player asked, e.g. a letter of 2 May. No name is needed."),
    )


class IdentityReadForm(forms.Form):
    """GDP-1: why a manager opens a sealed identity, recorded in the audit trail."""

    reason = forms.CharField(
        label=_("Why you need the identity"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example a request of the financial police, with its number."),
    )
