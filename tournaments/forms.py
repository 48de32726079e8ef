from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from cardroom.forms import ChipsField, MoneyField, MoneyRequestForm
from cashier.models import DESK_METHODS, PaymentMethod
from tournaments.models import BagRule, BlindStructure, GuaranteeMode, Tournament
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
    prize_cents = MoneyField(label=_("Prize contribution (EUR)"), confirm_large=False)
    fee_cents = MoneyField(label=_("Fee (EUR)"), confirm_large=False)
    bounty_cents = MoneyField(label=_("Bounty (EUR)"), required=False, confirm_large=False)
    starting_stack_chips = ChipsField(label=_("Starting stack (chips)"), initial=20000)
    min_players = forms.IntegerField(label=_("Minimum players to start"), min_value=2, initial=9)
    table_size = forms.IntegerField(label=_("Table size"), min_value=2, max_value=10, initial=9)
    late_registration_level = forms.IntegerField(
        label=_("Late registration until the end of level"), min_value=0, initial=6, help_text=_("0: none.")
    )
    max_reentries = forms.IntegerField(label=_("Re-entries per player"), min_value=0, initial=0)
    guarantee_mode = forms.ChoiceField(
        label=_("Guarantee"), choices=GuaranteeMode.choices, initial=GuaranteeMode.NONE
    )
    guarantee_cents = MoneyField(label=_("Guaranteed prize pool (EUR)"), required=False, confirm_large=False)
    guarantee_player_count = forms.IntegerField(
        label=_("Players needed for the guarantee"),
        min_value=2,
        initial=15,
        help_text=_("With its own player count: distinct players present by the deadline level."),
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


class RegisterForm(MoneyRequestForm):
    """The cashier registers a player; the key made when the form is shown makes a double tap
    register once (CAG-2)."""

    player = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, error_messages={"required": _("Choose the player.")}
    )
    method = forms.ChoiceField(label=_("Payment"), choices=DESK_METHODS, initial=PaymentMethod.CASH)
    present = forms.BooleanField(label=_("Present at the venue"), required=False, initial=True)
    # "Register with ticket" (SER-1): the holder's ticket pays the entry; no money moves.
    ticket = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)


class PostponeForm(forms.Form):
    start_at = forms.DateTimeField(label=_("New start time"), widget=DateTimeInput)


class RulesForm(forms.Form):
    rebuy_level = forms.IntegerField(
        label=_("Rebuys until the end of level"), min_value=0, initial=0, help_text=_("0: no rebuys.")
    )
    max_rebuys = forms.IntegerField(label=_("Rebuys per entry"), min_value=0, initial=0)
    rebuy_prize_cents = MoneyField(
        label=_("Rebuy prize contribution (EUR)"), required=False, confirm_large=False
    )
    rebuy_fee_cents = MoneyField(label=_("Rebuy fee (EUR)"), required=False, confirm_large=False)
    rebuy_chips = ChipsField(label=_("Rebuy chips"), initial=0)
    add_on_level = forms.IntegerField(
        label=_("Add-on until the end of level"), min_value=0, initial=0, help_text=_("0: no add-on.")
    )
    add_on_prize_cents = MoneyField(
        label=_("Add-on prize contribution (EUR)"), required=False, confirm_large=False
    )
    add_on_fee_cents = MoneyField(label=_("Add-on fee (EUR)"), required=False, confirm_large=False)
    add_on_chips = ChipsField(label=_("Add-on chips"), initial=0)

    def clean(self):
        data = super().clean()
        for name in ("rebuy_prize_cents", "rebuy_fee_cents", "add_on_prize_cents", "add_on_fee_cents"):
            data[name] = data.get(name) or 0
        return data


class PayoutTableForm(forms.Form):
    percentages = forms.CharField(
        label=_("Payout table (% per place, first place first)"),
        required=False,
        help_text=_('For example "50, 30, 20". Leave empty for the default table.'),
        max_length=5000,
    )

    def clean_percentages(self):
        text = self.cleaned_data["percentages"].strip()
        if not text:
            return []
        points = []
        for part in text.replace(";", ",").split(","):
            try:
                value = Decimal(part.strip())
            except InvalidOperation:
                raise forms.ValidationError(_("%s is not a percentage.") % part.strip()) from None
            basis_points = value * 100
            if basis_points != basis_points.to_integral_value():
                raise forms.ValidationError(_("Use at most two decimals: %s") % part.strip())
            points.append(int(basis_points))
        return points


class EventForm(forms.Form):
    """A new multi-day event (SER-2) with its house options, as event_create takes them."""

    name = forms.CharField(label=_("Name"), max_length=120)
    bag_rule = forms.ChoiceField(
        label=_("A player with several bags"),
        choices=BagRule.choices,
        initial=BagRule.BEST,
        widget=forms.RadioSelect,
    )
    guarantee_mode = forms.ChoiceField(
        label=_("Guarantee"), choices=GuaranteeMode.choices, initial=GuaranteeMode.NONE
    )
    guarantee_cents = MoneyField(label=_("Guaranteed prize pool (EUR)"), required=False, confirm_large=False)
    guarantee_player_count = forms.IntegerField(
        label=_("Players needed for the guarantee"),
        min_value=1,
        max_value=10000,
        initial=15,
        help_text=_("Conditional guarantee: distinct players present over all the flights."),
    )

    def clean(self):
        data = super().clean()
        data["guarantee_cents"] = data.get("guarantee_cents") or 0
        return data


class _EventTournamentForm(forms.Form):
    """A choice of one of the venue's tournaments. Shown, it offers only those the service
    accepts (`offered`); posted, any tournament of the venue is read and the service decides."""

    tournament = forms.ModelChoiceField(label=_("Tournament"), queryset=Tournament.objects.none())

    def __init__(self, *args, offered=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        field.queryset = Tournament.objects.all() if self.is_bound else Tournament.objects.none()
        self.offer(offered)

    def offer(self, offered) -> None:
        """What the select shows: the tournaments the service would take."""
        self.fields["tournament"].choices = [("", "---------")] + [
            (
                tournament.pk,
                f"{tournament.name} · {date_format(localtime(tournament.start_at), 'j. n. Y H:i')}",
            )
            for tournament in offered
        ]


class FlightAddForm(_EventTournamentForm):
    label = forms.CharField(
        label=_("Flight"), max_length=8, help_text=_("As 1A, 1B: the day and the letter of the flight.")
    )


class DayTwoForm(_EventTournamentForm):
    pass
