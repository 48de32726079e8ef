from datetime import timedelta

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardroom.forms import MoneyField, MoneyRequestForm
from cashgame.models import CashTable
from cashier.models import DESK_METHODS, PaymentMethod, TransactionKind
from tournaments.models import Tournament, TournamentStatus


class TransactionForm(MoneyRequestForm):
    """The desk's form for every kind of transaction; each goes through its game (CAG-6). A
    tournament's prize, fee and bounty are the tournament's, never typed here."""

    kind = forms.ChoiceField(label=_("Transaction"), choices=TransactionKind.choices)
    player = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, error_messages={"required": _("Choose the player.")}
    )
    amount = MoneyField(label=_("Amount (EUR)"), required=False)
    method = forms.ChoiceField(label=_("Payment"), choices=DESK_METHODS, initial=PaymentMethod.CASH)
    table = forms.ModelChoiceField(label=_("Cash table"), queryset=CashTable.objects.none(), required=False)
    seat = forms.IntegerField(
        label=_("Seat (empty: the one the floor gave)"), min_value=1, max_value=10, required=False
    )
    chips_on_table = MoneyField(
        label=_("Chips in front of the player now (EUR)"), required=False, confirm_large=False
    )
    tournament = forms.ModelChoiceField(
        label=_("Tournament"), queryset=Tournament.objects.none(), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = CashTable.objects.filter(status="open").select_related("game")
        # Tournaments not finished, and those of the last two weeks (prizes, refunds still due).
        recent = timezone.now() - timedelta(days=14)
        self.fields["tournament"].queryset = Tournament.objects.filter(
            Q(start_at__gte=recent) | ~Q(status=TournamentStatus.FINISHED)
        ).order_by("-start_at")
