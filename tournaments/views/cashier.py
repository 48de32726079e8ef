"""The cashier's tournament pages: register or re-enter players, rebuys and add-ons, refunds of
a cancelled tournament, prizes and bounties due, each with its receipt (TRN-2, TRN-6, TRN-10)."""

import uuid

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, RoleRequiredMixin, has_role
from cashier.selectors import open_shift_for
from players.models import Player
from tournaments.forms import RegisterForm
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import (
    bounties_due,
    entry_list,
    prizes_due,
    refunds_due,
    tournament_field_get,
    tournament_list,
    tournament_rules_get,
)
from tournaments.services import payouts, registration
from tournaments.views.common import run_service


class RegisterView(RoleRequiredMixin, DomainFormMixin, FormView):
    """The cashier's tournament page: register or re-enter players, rebuys and add-ons, refunds
    of a cancelled tournament, and prizes due (TRN-2, TRN-6, TRN-10)."""

    allowed_roles = CASHIER_ROLES
    template_name = "tournaments/register.html"
    form_class = RegisterForm

    def dispatch(self, request, *args, **kwargs):
        if not has_role(request.user, *self.allowed_roles):
            # The role check comes first (log-in or 403), before anything is looked up.
            return super().dispatch(request, *args, **kwargs)
        self.tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        self.shift = open_shift_for(cashier=request.user)
        if self.shift is None:
            messages.info(request, _("Open your shift first."))
            return redirect("cashier:shift-open")
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        form = kwargs.get("form")
        player_id = form["player"].value() if form is not None else None
        chosen = Player.objects.filter(pk=player_id).first() if str(player_id or "").isdigit() else None
        rules = tournament_rules_get(tournament=self.tournament)
        return super().get_context_data(
            tournament=self.tournament,
            field=tournament_field_get(tournament=self.tournament),
            entries=entry_list(tournament=self.tournament).filter(status=EntryStatus.ACTIVE),
            refunds=refunds_due(tournament=self.tournament),
            prizes=prizes_due(tournament=self.tournament),
            bounties=bounties_due(tournament=self.tournament),
            rebuys_open=rules.rebuy_level > 0 and rules.rebuys_closed_at is None,
            add_ons_open=rules.add_on_level > 0 and rules.add_ons_closed_at is None,
            chosen_player=chosen,
            shift=self.shift,
            new_key=lambda: uuid.uuid4().hex,
            **kwargs,
        )

    def perform(self, form):
        player = Player.objects.filter(pk=form.cleaned_data["player"]).first()
        if player is None:
            raise DomainError("not_found", _("Choose the player."), status_code=404)
        return registration.entry_register(
            actor=self.request.user,
            tournament=self.tournament,
            player=player,
            shift=self.shift,
            method=form.cleaned_data["method"],
            present=form.cleaned_data["present"],
            idempotency_key=form.cleaned_data["idempotency_key"],
        )

    def get_success_url(self):
        entry = self.result
        messages.success(
            self.request,
            _("Entry %(n)d registered (receipt %(r)s).")
            % {"n": entry.number, "r": entry.cashier_transaction.receipt_number},
        )
        # The receipt to print (CAG-4); it links back to the desk.
        return reverse("cashier:receipt", args=[entry.cashier_transaction_id])


def _receipt_of(result, action: str) -> int | None:
    """The cashier transaction an action just made, for its receipt (CAG-4). The bounty service
    answers with that transaction; the others answer with the entry."""
    if action == "bounty":
        return result.pk
    if action == "prize":
        return result.prize_transaction_id
    if action == "refund":
        return result.refund_transaction_id
    payment = result.payments.order_by("-pk").first()
    return payment.cashier_transaction_id if payment else None


CASHIER_ACTIONS = {
    "rebuy": (registration.entry_rebuy, True),
    "add-on": (registration.entry_add_on, True),
    "refund": (registration.refund_pay, False),
    "prize": (payouts.prize_pay, False),
    "bounty": (payouts.bounty_pay, False),
}


class CashierEntryActionView(RoleRequiredMixin, View):
    allowed_roles = CASHIER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, entry_id: int, action: str):
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        shift = open_shift_for(cashier=request.user)
        if shift is None:
            return redirect("cashier:shift-open")
        service, with_method = CASHIER_ACTIONS[action]
        arguments = {"idempotency_key": request.POST.get("idempotency_key", "")}
        if with_method:
            arguments["method"] = request.POST.get("method", "cash")
        done = run_service(
            request,
            lambda: service(actor=request.user, entry=entry, shift=shift, **arguments),
            _("Entry %(n)d: done.") % {"n": entry.number},
        )
        receipt = _receipt_of(done, action) if done else None
        if receipt is not None:
            return redirect("cashier:receipt", pk=receipt)
        return redirect("tournaments:register", pk=pk)


class CashierTournamentListView(RoleRequiredMixin, TemplateView):
    """The cashier's way in: tournaments to register players for, pay refunds or prizes of."""

    allowed_roles = CASHIER_ROLES
    template_name = "tournaments/cashier_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(tournaments=tournament_list()[:100], **kwargs)
