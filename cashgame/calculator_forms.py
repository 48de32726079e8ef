"""The floor calculators' page forms: side pots with dead money and each pot's rake and drop
(POT-1, POT-2, POT-4, RAK-6), showdown order (POT-3), best hand (HND-1), raises (BET-2..BET-4),
the big blind ante's posting (SER-5).
They clean to the keyword arguments of `cashgame.calculators`."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from cardroom.errors import DomainError
from cardroom.forms import ChipsField, MoneyField
from cardroom.money import parse_cents
from cardroom.refusals import refusal
from cashgame.models import Game
from poker.betting import Limit


def keywords() -> dict[str, str]:
    """The words the floor types after a player's amount, in the page's language."""
    return {
        "folded": pgettext("side-pot calculator: a player who folded", "folded"),
        "dead": pgettext("side-pot calculator: a dead blind", "dead"),
    }


def _spellings(keyword: str) -> set[str]:
    """A keyword as the page writes it, and in English, which every page also reads."""
    return {keyword, keywords()[keyword].casefold()}


class SidePotForm(forms.Form):
    """Amounts in EUR (cleaned to cents), so that a game's rake and jackpot drop apply."""

    players = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), initial="A 20\nB 5\nC 20")
    ranking = forms.CharField(
        label=_("Showdown result, best first: '>' between ranks, ties side by side (e.g. B > A C)"),
        required=False,
    )
    game = forms.ModelChoiceField(
        label=_("Rake and jackpot drop of the game"),
        queryset=Game.objects.all(),
        required=False,
    )
    saw_flop = forms.BooleanField(label=_("The flop was dealt"), required=False, initial=True)
    rake = MoneyField(label=_("Rake (empty: the game's, or none)"), required=False)
    drop = MoneyField(label=_("Jackpot drop (empty: the game's, or none)"), required=False)
    chip = MoneyField(label=_("Smallest chip"), initial="0.50")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].label = (
            _(
                "Players, one per line in seat order from the button's left: name and live money put in "
                "(EUR); add '%(folded)s', and '%(dead)s' with the amount of a dead blind: "
                "'D 2 %(folded)s %(dead)s 1'"
            )
            % keywords()
        )

    def clean_players(self):
        players = []
        words_of = keywords()
        folded, dead_word = _spellings("folded"), _spellings("dead")
        for line in self.cleaned_data["players"].splitlines():
            parts = line.split()
            if not parts:
                continue
            words = [word.casefold() for word in parts[2:]]
            dead = "0"
            at = next((i for i, word in enumerate(words) if word in dead_word), None)
            if at is not None:
                if at + 1 == len(words):
                    message = _("Give the dead blind's amount after '%(dead)s': %(line)s")
                    raise forms.ValidationError(message % {**words_of, "line": line})
                dead = words[at + 1]
                del words[at : at + 2]
            if len(parts) < 2 or any(word not in folded for word in words):
                message = _("Each line is a name, an amount and '%(folded)s' or '%(dead)s': %(line)s")
                raise forms.ValidationError(message % {**words_of, "line": line})
            try:
                amount, dead_cents = parse_cents(parts[1]), parse_cents(dead, field=_("Dead money"))
            except DomainError as error:
                raise refusal(error) from None
            if amount < 0 or dead_cents < 0:
                raise forms.ValidationError(_("Amounts put in are 0.00 EUR or more: %s") % line)
            players.append(
                {
                    "name": parts[0],
                    "amount": amount,
                    "folded": any(word in folded for word in words),
                    "dead": dead_cents,
                }
            )
        if not players:
            raise forms.ValidationError(_("Enter at least one player."))
        return players

    def clean_ranking(self):
        text = self.cleaned_data.get("ranking", "")
        return [group.split() for group in text.split(">") if group.split()]

    def clean_chip(self):
        chip = self.cleaned_data["chip"]
        if chip <= 0:
            raise forms.ValidationError(_("The smallest chip is more than 0.00 EUR."))
        return chip

    def clean(self):
        data = super().clean()
        for name in ("rake", "drop"):
            if data.get(name) is not None and data[name] < 0:
                self.add_error(name, _("Enter 0.00 EUR or more."))
        return data


class ShowdownForm(forms.Form):
    players = forms.CharField(label=_("Players still in, seat order from the button's left"), initial="A B C")
    last_aggressor = forms.CharField(
        label=_("Last aggressor on the river (empty: checked around)"), required=False
    )

    def clean_players(self):
        return self.cleaned_data["players"].split()


class BestHandForm(forms.Form):
    hole = forms.CharField(label=_("Hole cards"), max_length=12, initial="AsKs")
    board = forms.CharField(label=_("Board"), max_length=30, initial="Qs Js Ts 2d 3c")


# The betting structures by their names on the floor (poker.betting keeps code values only).
LIMIT_LABELS = {
    Limit.NO_LIMIT: _("No limit"),
    Limit.POT_LIMIT: _("Pot limit"),
    Limit.FIXED_LIMIT: _("Fixed limit"),
}


class RaiseForm(forms.Form):
    limit = forms.ChoiceField(
        label=_("Betting"), choices=[(limit.value, LIMIT_LABELS[limit]) for limit in Limit]
    )
    street = forms.TypedChoiceField(
        label=_("Round"),
        coerce=int,
        choices=[(0, _("Pre-flop")), (1, _("Flop")), (2, _("Turn")), (3, _("River"))],
    )
    small_blind = forms.IntegerField(label=_("Small blind"), min_value=0, initial=1)
    big_blind = forms.IntegerField(label=_("Big blind"), min_value=1, initial=2)
    straddle = forms.BooleanField(label=_("Straddle"), required=False)
    pot = forms.IntegerField(label=_("Pot before this round (after the flop)"), min_value=0, initial=0)
    actions = forms.CharField(
        label=_("Bets this round, in order: 'to' or 'had:to' (e.g. 6 2:20)"), required=False
    )
    player_bet = forms.IntegerField(label=_("The player has out this round"), min_value=0, initial=0)
    player_stack = forms.IntegerField(label=_("The player's stack behind"), min_value=0, initial=200)
    bet_faced_when_acted = forms.IntegerField(
        label=_("The player already acted, facing (empty: not yet)"), min_value=0, required=False
    )
    game = forms.ModelChoiceField(
        label=_("Game (its short all-in house option)"), queryset=Game.objects.all(), required=False
    )
    half_bet_rule = forms.TypedChoiceField(
        label=_("Short all-in rule"),
        choices=[
            ("", _("The game's option (full bet rule without a game)")),
            ("full", _("Full bet rule")),
            ("half", _("Half-bet rule")),
        ],
        coerce=lambda value: value == "half",
        empty_value=None,
        required=False,
    )

    def clean_actions(self):
        actions = []
        for item in self.cleaned_data.get("actions", "").split():
            had, _sep, to = item.rpartition(":")
            if not to.isdigit() or (had and not had.isdigit()):
                raise forms.ValidationError(_("Not a bet: %s") % item)
            actions.append({"had": int(had or 0), "to": int(to)})
        return actions


class BigBlindAnteForm(forms.Form):
    """The big blind's posting at a big-blind-ante level (SER-5); chips typed as staff write them."""

    stack = ChipsField(label=_("The big blind's stack"), initial="600")
    big_blind = ChipsField(label=_("Big blind"), initial="400")
    ante = ChipsField(label=_("Big blind ante"), initial="400")
    players_dealt = forms.IntegerField(label=_("Players dealt in"), min_value=2, max_value=10, initial=9)
