"""Page forms of the cash games. Amounts are typed in EUR (MoneyField) and clean to cents;
players are found by their membership card number. The floor calculators' forms are in
`cashgame.calculator_forms`."""

from django import forms
from django.utils.translation import gettext_lazy as _

from cardroom.errors import DomainError
from cardroom.forms import AmountsForm, MoneyField, MoneyRequestForm
from cardroom.money import parse_cents
from cardroom.refusals import refusal
from cashgame.models import CashTable, Game, GameType, HousePlayers, PlayerSession, VoidReason, WaitSource
from cashgame.rulebook import situation_choices
from cashgame.selectors import player_by_card
from cashier.models import DESK_METHODS
from players.forms import PlayerForm


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class PlayerCardField(forms.CharField):
    """A membership card number; cleans to the Player."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Player card number"))
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)

    def clean(self, value):
        card = super().clean(value)
        player = player_by_card(card_number=card)
        if player is None:
            raise forms.ValidationError(_("No player has card number %s.") % card)
        return player


def open_tables():
    return CashTable.objects.filter(status="open").select_related("game")


GAME_MONEY = [
    ("small_blind", _("Small blind")),
    ("big_blind", _("Big blind")),
    ("min_buy_in", _("Minimum buy-in")),
    ("max_buy_in", _("Maximum buy-in (empty: none)")),
    ("rake_cap", _("Rake cap per hand")),
    ("rake_rounding", _("Rake rounded down to")),
    ("jackpot_small_blind", _("Jackpot stakes: small blind")),
    ("jackpot_big_blind", _("Jackpot stakes: big blind")),
    ("jackpot_drop", _("Jackpot drop")),
    ("jackpot_threshold", _("Jackpot drop from a pot of")),
]


class GameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    game_type = forms.ChoiceField(label=_("Game"), choices=GameType.choices)
    rake_rate_bp = forms.IntegerField(
        label=_("Rake rate (basis points, 500 = 5 %)"), min_value=0, max_value=10_000
    )
    jackpot_min_players = forms.IntegerField(
        label=_("Jackpot: players dealt in at least"), min_value=2, max_value=10
    )
    seat_hold_seconds = forms.IntegerField(label=_("Called player holds the seat (seconds)"), min_value=10)
    half_bet_rule = forms.BooleanField(
        label=_("Half-bet rule: an all-in of at least half a raise reopens the betting"),
        required=False,
    )
    interest_threshold = forms.IntegerField(
        label=_("Interest list: prompt to open a table when this many wait (0: never)"),
        min_value=0,
        max_value=50,
    )
    must_move_for = forms.ModelChoiceField(
        label=_("Must-move game: its players move to"),
        queryset=Game.objects.filter(active=True),
        required=False,
    )
    active = forms.BooleanField(label=_("Offered"), required=False)

    def __init__(self, *args, game: Game | None = None, **kwargs):
        initial = kwargs.pop("initial", {}) or {}
        game = game or Game(
            rake_rate_bp=500,
            jackpot_min_players=4,
            seat_hold_seconds=180,
            half_bet_rule=False,
            interest_threshold=0,
            active=True,
        )
        defaults = Game._meta
        for name, _label in GAME_MONEY:
            value = getattr(game, f"{name}_cents", None)
            if value is None and game.pk is None and name != "max_buy_in":
                value = defaults.get_field(f"{name}_cents").get_default()
            initial.setdefault(name, "" if value is None else f"{value / 100:.2f}")
        for name in (
            "name",
            "game_type",
            "rake_rate_bp",
            "jackpot_min_players",
            "seat_hold_seconds",
            "half_bet_rule",
            "interest_threshold",
            "active",
        ):
            initial.setdefault(name, getattr(game, name))
        initial.setdefault("must_move_for", game.must_move_for_id or "")
        super().__init__(*args, initial=initial, **kwargs)
        if game.pk is not None:
            self.fields["must_move_for"].queryset = Game.objects.filter(active=True).exclude(pk=game.pk)
        for name, label in GAME_MONEY:
            self.fields[name] = MoneyField(label=label, required=name != "max_buy_in", confirm_large=False)

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        values = {name: data.pop(name) for name, _label in GAME_MONEY}
        return {**data, **{f"{name}_cents": value for name, value in values.items()}}


class TableForm(forms.Form):
    number = forms.IntegerField(label=_("Table number"), min_value=1, max_value=999)
    game = forms.ModelChoiceField(label=_("Game"), queryset=Game.objects.filter(active=True))
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=10, initial=9)
    house_players = forms.ChoiceField(
        label=_("House players at this table"), choices=HousePlayers.choices, required=False
    )


class HousePlayersForm(forms.Form):
    house_players = forms.ChoiceField(
        label=_("House players at this table"), choices=HousePlayers.choices, required=False
    )


class SeatForm(forms.Form):
    player = PlayerCardField()
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)


class MoveForm(forms.Form):
    table = forms.ModelChoiceField(label=_("To table"), queryset=CashTable.objects.none())
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)
    chips = MoneyField(label=_("Chips the player takes along (change of table)"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = open_tables()


class StackForm(forms.Form):
    chips = MoneyField(label=_("Chips counted"))


SEAT_CHOICES = [(n, n) for n in range(1, 11)]
BUTTON_MISSING = _("Button: draw for it (the highest card takes it) and choose the seat that won the draw.")
BUTTON_NOT_IN_PLAY = _("Button: choose a seat that is dealt in.")


class HandStartForm(forms.Form):
    """The floor's deal: the seats dealt in and the button. At a game's first hand the button is
    drawn (HND-2), so it must be given (`button_required`)."""

    seats = forms.TypedMultipleChoiceField(
        label=_("Dealt in"),
        coerce=int,
        choices=SEAT_CHOICES,
        error_messages={
            "required": _("Dealt in: tick the players dealt in, at least two."),
            "invalid_choice": _("Dealt in: tick only seats 1 to 10."),
        },
    )
    button_seat = forms.TypedChoiceField(
        label=_("Button"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "-"), *SEAT_CHOICES],
        error_messages={"invalid_choice": BUTTON_NOT_IN_PLAY},
    )

    def __init__(self, *args, button_required: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.button_required = button_required

    def clean_button_seat(self):
        button = self.cleaned_data.get("button_seat")
        if button is None and self.button_required:
            raise forms.ValidationError(BUTTON_MISSING, code="button_not_drawn")
        return button


class HandEndForm(AmountsForm):
    """The final pot, or the pots main first with '+' between them (RAK-6), or both."""

    pot = MoneyField(label=_("Final pot"), required=False)
    side_pots = forms.CharField(
        label=_("Side pots: the pots, main first, with '+' between them (e.g. 80 + 200)"),
        max_length=200,
        required=False,
    )

    def clean_side_pots(self):
        text = self.cleaned_data.get("side_pots", "").strip()
        if not text:
            return None
        try:
            return [parse_cents(part.strip(), field=str(_("Side pots"))) for part in text.split("+")]
        except DomainError as error:
            raise refusal(error) from None

    def clean(self):
        data = super().clean()
        if data.get("pot") is None and data.get("side_pots"):
            data["pot"] = sum(data["side_pots"])  # the pots add up to the pot
        if data.get("pot") is None and "side_pots" in data and "pot" not in self.errors:
            self.add_error("pot", _("Final pot: type the pot, or the pots with + between them."))
        return data


# The hand log's refusals that concern one field of the dealer's forms (the floor's dealer page
# and the tablet): the page shows them next to that field; the others above the form's button.
HAND_ERROR_FIELDS = {
    "too_few_players": "seats",
    "empty_seat": "seats",
    "not_dealable": "seats",
    "bad_button": "button_seat",
    "button_not_drawn": "button_seat",
    "invalid_pot": "pot",
    "pot_exceeds_chips_in_play": "pot",
    "invalid_side_pots": "side_pots",
    "side_pots_do_not_add_up": "side_pots",
    "main_pot_below_dead_money": "side_pots",
}


def add_hand_error(form: forms.Form, error: DomainError) -> None:
    """A refusal of the hand log as an error of the field it concerns, when the form has it."""
    field = HAND_ERROR_FIELDS.get(error.code)
    if field == "side_pots" and not form.data.get("side_pots"):
        field = "pot"  # no side pots typed: the pot is what to check
    form.add_error(field if field in form.fields else None, refusal(error))


class HandVoidForm(forms.Form):
    reason = forms.ChoiceField(choices=VoidReason.choices)


class BuyInForm(MoneyRequestForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=CashTable.objects.none())
    player = PlayerCardField()
    seat = forms.IntegerField(
        label=_("Seat (empty: the one the floor gave the player)"), min_value=1, max_value=10, required=False
    )
    amount = MoneyField(label=_("Buy-in"))
    method = forms.ChoiceField(label=_("Payment"), choices=DESK_METHODS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = open_tables()


class SessionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, session):
        player = session.player
        return f"{session.table} · {_('seat')} {session.seat} · {player.full_name} #{player.card_number}"


class TopUpForm(MoneyRequestForm):
    session = SessionChoiceField(label=_("Player"), queryset=PlayerSession.objects.none())
    chips_on_table = MoneyField(
        label=_("Chips on the table now (counted by the dealer)"), confirm_large=False
    )
    amount = MoneyField(label=_("Top-up"))
    method = forms.ChoiceField(label=_("Payment"), choices=DESK_METHODS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = PlayerSession.objects.filter(ended_at__isnull=True).select_related(
            "player", "table"
        )


class CashOutForm(MoneyRequestForm):
    session = SessionChoiceField(label=_("Player leaving"), queryset=PlayerSession.objects.none())
    amount = MoneyField(label=_("Chips brought to the cage"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = PlayerSession.objects.filter(ended_at__isnull=True).select_related(
            "player", "table"
        )


class DropCountForm(AmountsForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=CashTable.objects.all())
    period_start = forms.DateTimeField(label=_("From"), widget=DateTimeInput)
    period_end = forms.DateTimeField(label=_("Until"), widget=DateTimeInput)
    counted = MoneyField(label=_("Counted drop box"))
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class ClaimForm(forms.Form):
    table = forms.ModelChoiceField(label=_("Table"), queryset=CashTable.objects.all())
    hand_number = forms.IntegerField(label=_("Hand number"), min_value=1)
    loser_seat = forms.IntegerField(label=_("Losing seat"), min_value=1, max_value=10)
    loser_cards = forms.CharField(label=_("Losing hole cards (e.g. 8s8h)"), max_length=12)
    winner_seat = forms.IntegerField(label=_("Winning seat"), min_value=1, max_value=10)
    winner_cards = forms.CharField(label=_("Winning hole cards"), max_length=12)
    board = forms.CharField(label=_("Board (five cards)"), max_length=30)


class WaitingAddForm(forms.Form):
    game = forms.ModelChoiceField(label=_("Game"), queryset=Game.objects.filter(active=True))
    player = PlayerCardField()
    # Staff add a player who is here or who rang; a join from the player's own phone is theirs.
    source = forms.ChoiceField(
        label=_("Added"),
        choices=[
            (WaitSource.IN_PERSON, WaitSource.IN_PERSON.label),
            (WaitSource.PHONE, WaitSource.PHONE.label),
        ],
    )


class CallNextForm(forms.Form):
    game = forms.ModelChoiceField(queryset=Game.objects.all())
    table = forms.ModelChoiceField(queryset=CashTable.objects.none())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = open_tables()


class OpenTableForm(forms.Form):
    """An interest list's game and the closed table the floor opens for it (WTL-2)."""

    game = forms.ModelChoiceField(queryset=Game.objects.filter(active=True))
    table = forms.ModelChoiceField(queryset=CashTable.objects.filter(status="closed"))


class CheckInForm(forms.Form):
    card_number = forms.CharField(label=_("Membership card"), max_length=30, required=False)


class CheckInPersonForm(PlayerForm):
    """A phone joiner registered at the seat panel (WTL-1): who they are, as the player registry
    takes it; the card number is the next one, and the notes wait for the player's card page."""

    card_number = None
    notes = None
    public_full_name = None

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "check-in-%s")
        super().__init__(*args, **kwargs)


class WaitingSeatForm(forms.Form):
    """The seat a waiting player takes: `place` ("<table id>:<seat>", the waiting-list page's
    choice of free seats), or a table and a seat number."""

    place = forms.RegexField(regex=r"^[0-9]{1,9}:[0-9]{1,2}$", required=False)
    table = forms.ModelChoiceField(queryset=CashTable.objects.none(), required=False)
    seat = forms.IntegerField(min_value=1, max_value=10, required=False)
    # Why the player goes ahead of others who could sit (WTL-2); the service asks for it then.
    reason = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = open_tables()

    def clean(self):
        data = super().clean()
        place = data.pop("place", "")
        if place:
            table_id, seat = place.split(":")
            data["table"] = open_tables().filter(pk=int(table_id)).first()
            data["seat"] = int(seat)
            if data["table"] is None:
                raise forms.ValidationError(_("That table is not open any more: choose another seat."))
        if not data.get("seat"):
            raise forms.ValidationError(_("Choose the seat the player takes."))
        return data


class RulingForm(forms.Form):
    table = forms.ModelChoiceField(label=_("Table"), queryset=CashTable.objects.all())
    hand_number = forms.IntegerField(label=_("Hand number (empty: none)"), min_value=1, required=False)
    situation = forms.ChoiceField(label=_("Situation"), choices=situation_choices)
    decision = forms.CharField(label=_("Decision"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
