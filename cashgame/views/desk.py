"""The cashier's cash-game desk: buy-in, top-up, cash-out and jackpot shares."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.refusals import refusal
from cardroom.roles import CASHIER_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import JackpotShare
from cashgame.services import jackpot, sessions
from cashgame.views._common import ActionView
from cashier.receipts import receipt_message
from cashier.selectors import open_shift_for

FORMS = {"buy-in": forms.BuyInForm, "top-up": forms.TopUpForm, "cash-out": forms.CashOutForm}


class CashierDeskView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASHIER_ROLES
    template_name = "cashgame/cashier.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(**desk_context(self.request.user), **kwargs)


def desk_context(user, *, action: str = "", form=None) -> dict:
    """The desk's forms, the one just sent (bound, with what was typed) in its place."""
    fresh = {name: form_class() for name, form_class in FORMS.items()}
    if form is not None:
        fresh[action] = form
    return {
        "shift": open_shift_for(cashier=user),
        "buy_in_form": fresh["buy-in"],
        "top_up_form": fresh["top-up"],
        "cash_out_form": fresh["cash-out"],
        "shares": selectors.jackpot_unpaid_shares(),
    }


def _shift_of(user):
    shift = open_shift_for(cashier=user)
    if shift is None:
        raise DomainError("no_open_shift", _("Open your shift at the cashier desk first."), rule="CAG-3")
    return shift


class CashierActionView(ActionView):
    allowed_roles = CASHIER_ROLES

    def form(self):
        return FORMS[self.kwargs["action"]](self.request.POST)

    def post(self, request, **kwargs):
        """A refused request shows the desk again with what was typed, as typed, and the error
        beside it; a large amount asks for its second look (CAG-5) on the same page."""
        action = kwargs["action"]
        form = self.form()
        if form.is_valid():
            try:
                result = self.perform(form, action)
            except DomainError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(request, self.message(result, action))
                return redirect(self.back())
        context = desk_context(request.user, action=action, form=form)
        return render(request, "cashgame/cashier.html", context, status=200)

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
        """The receipt, its amount, the player, the table and seat, and a print link (CAG-4)."""
        record = selectors.session_last_receipt(session=result)
        if record is None:  # a cash-out of 0.00 EUR: the seat is free, no money moved
            return _("%(player)s left %(table)s, seat %(seat)d, with no chips.") % {
                "player": result.player.full_name,
                "table": result.table,
                "seat": result.seat,
            }
        where = _("%(table)s, seat %(seat)s") % {"table": result.table, "seat": result.seat}
        return receipt_message(record=record, where=where)

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
        record = result.transaction
        if record is None:
            return _("Jackpot share paid to %s.") % result.player.full_name
        return receipt_message(
            record=record, where=_("Jackpot share (%(role)s)") % {"role": result.get_role_display()}
        )

    def back(self, **kwargs):
        return reverse("cashgame:cashier")
