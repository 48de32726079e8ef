from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.audit_actions import action_label
from cardroom.audit_display import object_label
from cardroom.forms import DateInput, MoneyField
from cardroom.models import Venue
from cardroom.selectors import audit_actions, audit_object_types


class VenueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    # VEN-1: where the venue's public pages answer; checked by cardroom.services.venue_update.
    slug = forms.CharField(
        label=_("Address name"),
        max_length=40,
        help_text=_(
            "Lowercase letters, digits and hyphens: the public pages are at /v/<address name>/room/. "
            "Links and QR codes printed with the old name stop working when it changes."
        ),
    )
    host_names = forms.CharField(
        label=_("Host names"),
        max_length=300,
        required=False,
        help_text=_(
            "Optional, separated by commas, without https:// (room.example.com): the public pages "
            "also answer at the root of each, once the server's administrator has allowed them."
        ),
    )
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
    recount_threshold_cents = MoneyField(
        label=_("Recount a drawer that differs by more than (EUR)"),
        confirm_large=False,
        help_text=_("Closing a shift with a larger variance asks for one recount first."),
    )
    dealer_push_minutes = forms.IntegerField(
        label=_("Dealers move on every (minutes)"), min_value=10, max_value=90
    )
    identity_retention_years = forms.IntegerField(
        label=_("Keep an erased player's identity after the last transaction (years)"),
        min_value=1,
        max_value=30,
        help_text=_("What the anti-money-laundering law makes the room keep; sealed, then destroyed."),
    )

    @classmethod
    def initial_for(cls, venue: Venue) -> dict:
        return {
            "name": venue.name,
            "slug": venue.slug,
            "host_names": venue.host_names,
            "time_zone": venue.time_zone,
            "smallest_chip_cents": venue.smallest_chip_cents,
            "gaming_day_start_hour": venue.gaming_day_start_hour,
            "aml_threshold_cents": venue.aml_threshold_cents,
            "confirm_threshold_cents": venue.confirm_threshold_cents,
            "recount_threshold_cents": venue.recount_threshold_cents,
            "dealer_push_minutes": venue.dealer_push_minutes,
            "identity_retention_years": venue.identity_retention_years,
        }


def object_type_choices() -> list[tuple[str, str]]:
    """The kinds of object the trail holds, by their names in the user's language, not
    "cashgame.playersession" (a kind appears once the trail has a record of it)."""
    named = sorted(
        ((kind, object_label(kind)) for kind in audit_object_types()), key=lambda choice: choice[1]
    )
    return [("", _("All")), *named]


def action_choices() -> list[tuple[str, str]]:
    """The actions the trail holds, by their labels in the user's language, not "shift.close"."""
    named = sorted(((code, action_label(code)) for code in audit_actions()), key=lambda choice: choice[1])
    return [("", _("All")), *named]


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(label=_("Action"), required=False)
    object_type = forms.ChoiceField(label=_("Object type"), required=False)
    actor = forms.CharField(label=_("Staff"), required=False, max_length=150)
    since = forms.DateField(label=_("From"), required=False, widget=DateInput)
    until = forms.DateField(label=_("To"), required=False, widget=DateInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read once per request, for checking the choice and for drawing the list alike.
        self.fields["action"].choices = action_choices()
        self.fields["object_type"].choices = object_type_choices()
