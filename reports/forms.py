from datetime import date, timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import DateInput

# Reports cover the room's life: nothing before the year 2000 or more than a year ahead.
EARLIEST = date(2000, 1, 1)
LONGEST_RANGE_DAYS = 366 * 6


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
    group = forms.ChoiceField(
        label=_("Per"), choices=[("day", _("day")), ("week", _("week")), ("month", _("month"))], initial="day"
    )
    player = forms.CharField(label=_("Player (card or last name)"), max_length=80, required=False)

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if end < start:
                raise forms.ValidationError(_("The range ends before it starts."))
            if start < EARLIEST or (end - start).days > LONGEST_RANGE_DAYS:
                raise forms.ValidationError(_("Choose a range of at most six years, from 2000 on."))
        return data
