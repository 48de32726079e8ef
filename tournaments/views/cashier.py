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
from cardroom.refusals import refusal
from cardroom.roles import CASHIER_ROLES, RoleRequiredMixin, has_role
from cashier.selectors import open_shift_for
from players.forms import PlayerForm
from players.models import Player
from players.services import player_create
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
from tournaments.selectors.tickets import desk_tickets
from tournaments.services import payouts, registration

# The session key that keeps the cashier on one tournament from one player to the next.
REMEMBERED = "cage_tournament"


class RegisterView(RoleRequiredMixin, DomainFormMixin, FormView):
    """The tournament cashier's one screen (TRN-6, TRN-9): the tournament stays chosen; find the
    player (or register a new one), take the buy-in, and the entry, its seat and the receipt
    show on the same screen, ready for the next player. Prizes, bounties, refunds, rebuys and
    add-ons of the same tournament are paid from here too (TRN-2, TRN-10)."""

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
        request.session[REMEMBERED] = self.tournament.pk
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        if "new_player" in request.POST:
            return self.new_player()
        return super().post(request, *args, **kwargs)

    def new_player(self):
        """A player not on file yet is registered first (PLY-1), then chosen for the buy-in;
        a refusal shows the form again with what was typed."""
        form = PlayerForm(self.request.POST, prefix="new")
        if form.is_valid():
            try:
                player = player_create(actor=self.request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(self.request, _("%(player)s is on file.") % {"player": player.full_name})
                return redirect(f"{self.request.path}?player={player.pk}")
        return self.render_to_response(self.get_context_data(new_player_form=form))

    def get_initial(self):
        wanted = self.request.GET.get("player", "")
        return {"player": int(wanted)} if wanted.isdigit() else {}

    def get_context_data(self, **kwargs):
        form = kwargs.pop("form", None) or self.get_form()
        player_id = form["player"].value()
        chosen = Player.objects.filter(pk=player_id).first() if str(player_id or "").isdigit() else None
        rules = tournament_rules_get(tournament=self.tournament)
        done = self.request.GET.get("done", "")
        kwargs.setdefault("new_player_form", PlayerForm(prefix="new"))
        field = tournament_field_get(tournament=self.tournament)
        return super().get_context_data(
            form=form,
            tournament=self.tournament,
            tournaments=tournament_list(include_closed=False)[:30],
            field=field,
            tickets=desk_tickets(tournament=self.tournament, registration_open=field["registration_open"]),
            entries=entry_list(tournament=self.tournament).filter(status=EntryStatus.ACTIVE),
            refunds=refunds_due(tournament=self.tournament),
            prizes=prizes_due(tournament=self.tournament),
            bounties=bounties_due(tournament=self.tournament),
            rebuys_open=rules.rebuy_level > 0 and rules.rebuys_closed_at is None,
            add_ons_open=rules.add_on_level > 0 and rules.add_ons_closed_at is None,
            chosen_player=chosen,
            done=entry_list(tournament=self.tournament).filter(pk=int(done)).first()
            if done.isdigit()
            else None,
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
            ticket_id=form.cleaned_data.get("ticket"),
            idempotency_key=form.cleaned_data["idempotency_key"],
        )

    def get_success_url(self):
        # Back to this screen with the entry's receipt shown (CAG-4), ready for the next player.
        return f"{reverse('tournaments:register', args=[self.tournament.pk])}?done={self.result.pk}"


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
        try:
            done = service(actor=request.user, entry=entry, shift=shift, **arguments)
        except DomainError as error:
            messages.error(request, str(error))
            return redirect("tournaments:register", pk=pk)
        receipt = _receipt_of(done, action)
        if receipt is None:
            messages.success(request, _("Entry %(n)d: done.") % {"n": entry.number})
            return redirect("tournaments:register", pk=pk)
        # The receipt is the answer: its number, the kind and amount, the player, the tournament,
        # the entry and its seat, and its Print button (CAG-4). No second line to repeat it (a
        # double tap would show it twice).
        return redirect("cashier:receipt", pk=receipt)


class CashierTournamentListView(RoleRequiredMixin, TemplateView):
    """The cashier's way in: tournaments to register players for, pay refunds or prizes of.
    The tournament the cashier worked on last is offered first (`?t=` switches to another)."""

    allowed_roles = CASHIER_ROLES
    template_name = "tournaments/cashier_list.html"

    def get(self, request, *args, **kwargs):
        wanted = request.GET.get("t", "")
        if wanted.isdigit():
            return redirect("tournaments:register", pk=int(wanted))
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        remembered = self.request.session.get(REMEMBERED)
        return super().get_context_data(
            tournaments=tournament_list()[:100],
            remembered=Tournament.objects.filter(pk=remembered).first() if remembered else None,
            **kwargs,
        )
