from datetime import date, timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import DateInput

# Reports cover the room's life: nothing before the year 2000 or more than a year ahead.
EARLIEST = date(2000, 1, 1)
LONGEST_RANGE_DAYS = 366 * 6
GROUPS = [("day", _("day")), ("week", _("week")), ("month", _("month"))]


class DayForm(forms.Form):
    day = forms.DateField(label=_("Gaming day"), widget=DateInput)

    def clean_day(self):
        day = self.cleaned_data["day"]
        if not EARLIEST <= day <= date.today() + timedelta(days=366):
            raise forms.ValidationError(_("Choose a day between 2000 and next year."))
        return day


class RangeForm(forms.Form):
    start = forms.DateField(label=_("From"), widget=DateInput)
    end = forms.DateField(label=_("To"), widget=DateInput)

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if end < start:
                raise forms.ValidationError(_("The range ends before it starts."))
            if start < EARLIEST or (end - start).days > LONGEST_RANGE_DAYS:
                raise forms.ValidationError(_("Choose a range of at most six years, from 2000 on."))
        return data


class GroupedRangeForm(RangeForm):
    group = forms.ChoiceField(label=_("Per"), choices=GROUPS, initial="day")


class PlayerActivityForm(RangeForm):
    player = forms.CharField(label=_("Player (card or last name)"), max_length=80, required=False)
    activity = forms.ChoiceField(
        label=_("Played"),
        choices=[("", _("anything")), ("cash", _("cash games")), ("tournaments", _("tournaments"))],
        required=False,
    )
    order = forms.ChoiceField(
        label=_("Sort by"),
        choices=[
            ("name", _("name")),
            ("hours", _("hours played")),
            ("buy_ins", _("cash-game buy-ins")),
            ("net", _("cash-game net (lost most first)")),
            ("tournaments", _("tournament entries")),
            ("won", _("prizes and jackpots")),
        ],
        required=False,
        initial="name",
    )
