"""The floor's rulings log (FLR-5)."""

from django.contrib import messages
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import Hand
from cashgame.rulebook import SITUATIONS
from cashgame.services import rulings


class RulingsView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/rulings.html"
    form_class = forms.RulingForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            situations=SITUATIONS, rulings=selectors.ruling_list()[:100], **kwargs
        )

    def perform(self, form):
        data = form.cleaned_data
        hand = None
        if data["hand_number"]:
            hand = Hand.objects.filter(table=data["table"], number=data["hand_number"]).first()
            if hand is None:
                raise DomainError("unknown_hand", _("No such hand at that table."), rule="FLR-5")
        return rulings.ruling_record(
            actor=self.request.user,
            table=data["table"],
            hand=hand,
            situation=data["situation"],
            decision=data["decision"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Ruling logged."))
        return reverse("cashgame:rulings")
