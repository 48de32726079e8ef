"""The cashier's cash-game desk: buy-in, top-up, cash-out and jackpot shares."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import JackpotShare
from cashgame.services import jackpot, sessions
from cashgame.views._common import ActionView
from cashier.selectors import open_shift_for


class CashierDeskView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASHIER_ROLES
    template_name = "cashgame/cashier.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            shift=open_shift_for(cashier=self.request.user),
            buy_in_form=forms.BuyInForm(),
            top_up_form=forms.TopUpForm(),
            cash_out_form=forms.CashOutForm(),
            shares=selectors.jackpot_unpaid_shares(),
            **kwargs,
        )


def _shift_of(user):
    shift = open_shift_for(cashier=user)
    if shift is None:
        raise DomainError("no_open_shift", _("Open your shift at the cashier desk first."), rule="CAG-3")
    return shift


class CashierActionView(ActionView):
    allowed_roles = CASHIER_ROLES

    def form(self):
        form_class = {"buy-in": forms.BuyInForm, "top-up": forms.TopUpForm, "cash-out": forms.CashOutForm}
        return form_class[self.kwargs["action"]](self.request.POST)

    def perform(self, form, action):
        data, actor = form.cleaned_data, self.request.user
        common = {"actor": actor, "shift": _shift_of(actor), "idempotency_key": data["idempotency_key"]}
        if action == "buy-in":
            return sessions.session_buy_in(
                **common,
                table=data["table"],
                player=data["player"],
                seat=data["seat"],
                amount_cents=data["amount"],
                method=data["method"],
            )
        if action == "top-up":
            return sessions.session_top_up(
                **common,
                session=data["session"],
                amount_cents=data["amount"],
                chips_on_table_cents=data["chips_on_table"],
                method=data["method"],
            )
        return sessions.session_cash_out(**common, session=data["session"], amount_cents=data["amount"])

    def message(self, result, action):
        texts = {
            "buy-in": _("%(player)s bought in at %(table)s, seat %(seat)d."),
            "top-up": _("%(player)s topped up at %(table)s, seat %(seat)d."),
            "cash-out": _("%(player)s cashed out and left %(table)s, seat %(seat)d."),
        }
        return texts[action] % {"player": result.player.full_name, "table": result.table, "seat": result.seat}

    def back(self, **kwargs):
        return reverse("cashgame:cashier")


class SharePayView(ActionView):
    allowed_roles = CASHIER_ROLES

    def perform(self, form, pk):
        return jackpot.jackpot_share_pay(
            actor=self.request.user,
            shift=_shift_of(self.request.user),
            share=get_object_or_404(JackpotShare, pk=pk),
            idempotency_key=self.request.POST.get("idempotency_key", ""),
        )

    def message(self, result, **kwargs):
        return _("Jackpot share paid to %s.") % result.player.full_name

    def back(self, **kwargs):
        return reverse("cashgame:cashier")
