from django import forms
from django.apps import apps
from django.utils.translation import gettext_lazy as _

from cardroom.forms import DateInput, MoneyField
from cardroom.models import Venue


class VenueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    time_zone = forms.CharField(label=_("Time zone"), max_length=64)
    # Settings, not money changing hands: no second look at large values.
    smallest_chip_cents = MoneyField(label=_("Smallest chip (EUR)"), confirm_large=False)
    gaming_day_start_hour = forms.IntegerField(
        label=_("Gaming day starts at (hour)"), min_value=0, max_value=23
    )
    aml_threshold_cents = MoneyField(label=_("AML threshold (EUR)"), confirm_large=False)
    confirm_threshold_cents = MoneyField(
        label=_("Confirm typed amounts over (EUR)"),
        confirm_large=False,
        help_text=_("Larger amounts are shown back in words and need a second tap."),
    )

    @classmethod
    def initial_for(cls, venue: Venue) -> dict:
        return {
            "name": venue.name,
            "time_zone": venue.time_zone,
            "smallest_chip_cents": venue.smallest_chip_cents,
            "gaming_day_start_hour": venue.gaming_day_start_hour,
            "aml_threshold_cents": venue.aml_threshold_cents,
            "confirm_threshold_cents": venue.confirm_threshold_cents,
        }


# The apps whose records the trail holds; Django's own (auth, sessions) are the admin's business.
AUDITED_APPS = ("cardroom", "players", "cashier", "tournaments", "cashgame")


def object_type_choices() -> list[tuple[str, str]]:
    """The kinds of object by their names in the user's language, not "cashgame.playersession";
    called when the form is drawn, so the names follow the active language."""
    from cardroom.audit_display import object_label

    types = [m._meta.label_lower for m in apps.get_models() if m._meta.app_label in AUDITED_APPS]
    named = sorted(((kind, object_label(kind)) for kind in types), key=lambda choice: choice[1])
    return [("", _("All")), *named]


class AuditFilterForm(forms.Form):
    action = forms.CharField(label=_("Action"), required=False, max_length=80)
    object_type = forms.ChoiceField(label=_("Object type"), required=False, choices=object_type_choices)
    actor = forms.CharField(label=_("Staff"), required=False, max_length=150)
    since = forms.DateField(label=_("From"), required=False, widget=DateInput)
    until = forms.DateField(label=_("To"), required=False, widget=DateInput)
