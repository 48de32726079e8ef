"""Bad-beat jackpot claims entered by the floor (JKP-3)."""

from django.contrib import messages
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import Hand
from cashgame.services import jackpot
from cashier.selectors import jackpot_fund_balance


class JackpotView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/jackpot.html"
    form_class = forms.ClaimForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            claims=selectors.jackpot_claim_list()[:50], fund=jackpot_fund_balance(), **kwargs
        )

    def perform(self, form):
        data = form.cleaned_data
        hand = Hand.objects.filter(table=data["table"], number=data["hand_number"]).first()
        if hand is None:
            raise DomainError("unknown_hand", _("No such hand at that table."), rule="JKP-1")
        return jackpot.jackpot_claim_create(
            actor=self.request.user,
            hand=hand,
            loser_seat=data["loser_seat"],
            winner_seat=data["winner_seat"],
            loser_cards=data["loser_cards"],
            winner_cards=data["winner_cards"],
            board=data["board"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Bad-beat jackpot awarded: the cashier pays the shares."))
        return reverse("cashgame:jackpot")
