"""Page forms of the high-hand promotions (LOY-2): the manager's promotion and the floor's claim.
Amounts are typed in EUR and clean to cents; the cards are typed as the floor reads them and
checked by the service (poker.highhand), which refuses them naming the rule."""

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.forms import MoneyField
from cashgame.models import CashTable, Game, MinimumHand, Promotion


class TimeInput(forms.TimeInput):
    input_type = "time"


PROMOTION_MONEY = [
    ("prize", _("Prize per period")),
    ("min_pot", _("Minimum pot")),
    ("drop", _("Drop per qualifying pot into the fund")),
]


FIELD_ORDER = [
    *("name", "games", "starts_at", "ends_at", "period_minutes", "prize", "both_hole_cards", "min_hand"),
    *("min_pot", "min_players", "drop", "active"),
]


class PromotionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    games = forms.ModelMultipleChoiceField(
        label=_("Games and stakes"),
        queryset=Game.objects.filter(active=True),
        widget=forms.CheckboxSelectMultiple,
    )
    starts_at = forms.TimeField(label=_("First period starts (venue time)"), widget=TimeInput(format="%H:%M"))
    ends_at = forms.TimeField(
        label=_("Last period ends (an earlier time is the next morning)"), widget=TimeInput(format="%H:%M")
    )
    period_minutes = forms.IntegerField(label=_("Period length (minutes)"), min_value=5, max_value=1440)
    both_hole_cards = forms.BooleanField(label=_("Both hole cards must play"), required=False)
    min_hand = forms.TypedChoiceField(label=_("Minimum hand"), choices=MinimumHand.choices, coerce=int)
    min_players = forms.IntegerField(label=_("Players dealt in at least"), min_value=2, max_value=10)
    active = forms.BooleanField(label=_("Running"), required=False)

    def __init__(self, *args, promotion: Promotion | None = None, **kwargs):
        initial = kwargs.pop("initial", {}) or {}
        if promotion is None:
            initial.update(
                period_minutes=60,
                both_hole_cards=True,
                min_hand=0,
                min_players=4,
                active=True,
                prize=20_000,
                min_pot=2_000,
                drop=100,
            )
        else:
            for name in (
                "name",
                "starts_at",
                "ends_at",
                "period_minutes",
                "both_hole_cards",
                "min_hand",
                "min_players",
                "active",
            ):
                initial[name] = getattr(promotion, name)
            initial["games"] = list(promotion.games.values_list("pk", flat=True))
            for name, _label in PROMOTION_MONEY:
                initial[name] = getattr(promotion, f"{name}_cents")
        super().__init__(*args, initial=initial, **kwargs)
        for name, label in PROMOTION_MONEY:
            self.fields[name] = MoneyField(label=label, confirm_large=False)
        self.order_fields(FIELD_ORDER)

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        values = {f"{name}_cents": data.pop(name) for name, _label in PROMOTION_MONEY}
        return {**data, **values, "games": list(data.pop("games"))}


class HighHandClaimForm(forms.Form):
    promotion = forms.ModelChoiceField(label=_("Promotion"), queryset=Promotion.objects.filter(active=True))
    table = forms.ModelChoiceField(
        label=_("Table"), queryset=CashTable.objects.filter(status="open").select_related("game")
    )
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)
    hole_cards = forms.CharField(
        label=_("Hole cards (e.g. Ah Kd)"),
        max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    board = forms.CharField(
        label=_("Board (e.g. Qs Jc Th 2d 3c)"),
        max_length=30,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
