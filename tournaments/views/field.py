"""Floor and cashier pages for the field: the registration desk, the cashier's registration and
payments page, the seating chart, bust-outs, payouts and deals (TRN-1 to TRN-10)."""

import uuid

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from cashier.selectors import open_shift_for
from players.models import Player
from tournaments.forms import PayoutTableForm, PostponeForm, RegisterForm, RulesForm
from tournaments.models import Entry, EntryStatus, MoveSlip, Table, Tournament, TournamentStatus
from tournaments.selectors import (
    deal_calculate,
    entry_list,
    pending_move_slips,
    prizes_due,
    refunds_due,
    seating_chart,
    tournament_field_get,
    tournament_list,
    tournament_rules_get,
)
from tournaments.services import payouts, registration, seating

FLOOR_AND_CASHIER = (*FLOOR_ROLES, *CASHIER_ROLES)


def _run(request, call, done: str):
    """Call one service; a refusal becomes an error message naming the rule. Returns the
    service's result, or None when it was refused."""
    try:
        result = call()
    except DomainError as error:
        messages.error(request, str(error))
        return None
    messages.success(request, done)
    return result if result is not None else True


class _TournamentPage(RoleRequiredMixin, TemplateView):
    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return super().get_context_data(
            tournament=tournament,
            field=tournament_field_get(tournament=tournament),
            Status=TournamentStatus,
            **kwargs,
        )


class EntryDeskView(_TournamentPage):
    """The floor's registration desk: who is registered, present or not, and the rules."""

    allowed_roles = FLOOR_AND_CASHIER
    template_name = "tournaments/entries.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        rules = (
            tournament_rules_get(tournament=tournament) if has_role(self.request.user, *FLOOR_ROLES) else None
        )
        editable = tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        initial = {name: getattr(rules, name) for name in registration.RULE_FIELDS} if rules else {}
        context.update(
            entries=entry_list(tournament=tournament),
            is_floor=has_role(self.request.user, *FLOOR_ROLES),
            is_cashier=has_role(self.request.user, *CASHIER_ROLES),
            rules_form=RulesForm(initial=initial) if rules and editable else None,
            postpone_form=PostponeForm() if editable else None,
        )
        return context


class EntryPresentView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, entry_id: int):
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        present = request.POST.get("present") == "1"
        _run(
            request,
            lambda: registration.entry_mark_present(actor=request.user, entry=entry, present=present),
            _("Entry %(n)d marked %(state)s.")
            % {"n": entry.number, "state": _("present") if present else _("absent")},
        )
        return redirect("tournaments:entries", pk=pk)


class RulesView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        form = RulesForm(request.POST)
        if not form.is_valid():
            messages.error(request, "; ".join(str(e) for errors in form.errors.values() for e in errors))
            return redirect("tournaments:entries", pk=pk)
        tournament = get_object_or_404(Tournament, pk=pk)
        _run(
            request,
            lambda: registration.tournament_rules_update(
                actor=request.user, tournament=tournament, **form.cleaned_data
            ),
            _("Rebuy and add-on rules saved."),
        )
        return redirect("tournaments:entries", pk=pk)


class PostponeView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        form = PostponeForm(request.POST)
        tournament = get_object_or_404(Tournament, pk=pk)
        if not form.is_valid():
            messages.error(request, _("Give the new start time."))
        else:
            _run(
                request,
                lambda: registration.tournament_postpone(
                    actor=request.user, tournament=tournament, start_at=form.cleaned_data["start_at"]
                ),
                _("Start postponed."),
            )
        return redirect("tournaments:detail", pk=pk)


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


def _receipt_of(entry: Entry, action: str) -> int | None:
    """The cashier transaction an action on the entry just made, for its receipt (CAG-4)."""
    if action == "prize":
        return entry.prize_transaction_id
    if action == "refund":
        return entry.refund_transaction_id
    payment = entry.payments.order_by("-pk").first()
    return payment.cashier_transaction_id if payment else None


CASHIER_ACTIONS = {
    "rebuy": (registration.entry_rebuy, True),
    "add-on": (registration.entry_add_on, True),
    "refund": (registration.refund_pay, False),
    "prize": (payouts.prize_pay, False),
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
        done = _run(
            request,
            lambda: service(actor=request.user, entry=entry, shift=shift, **arguments),
            _("Entry %(n)d: done.") % {"n": entry.number},
        )
        receipt = _receipt_of(done, action) if done else None
        if receipt is not None:
            return redirect("cashier:receipt", pk=receipt)
        return redirect("tournaments:register", pk=pk)


class SeatingView(_TournamentPage):
    """The seating chart (TRN-9): tables and seats, move slips to confirm, the button draw."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/seating.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        context.update(
            chart=seating_chart(tournament=tournament),
            slips=pending_move_slips(tournament=tournament),
            has_tables=tournament.tables.exists(),
        )
        return context


class SeatingActionView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        tournament = get_object_or_404(Tournament, pk=pk)
        if action == "draw":
            _run(
                request,
                lambda: seating.seating_draw(actor=request.user, tournament=tournament),
                _("Seats drawn."),
            )
        else:
            _run(
                request,
                lambda: seating.seating_final_table_draw(actor=request.user, tournament=tournament),
                _("Final table drawn; draw for the button next."),
            )
        return redirect("tournaments:seating", pk=pk)


class ButtonDrawView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, table_id: int):
        table = get_object_or_404(Table, pk=table_id, tournament_id=pk)
        cards = {
            int(name.removeprefix("card_")): value.strip()
            for name, value in request.POST.items()
            if name.startswith("card_") and name.removeprefix("card_").isdigit() and value.strip()
        }
        _run(
            request,
            lambda: seating.table_button_draw(actor=request.user, table=table, cards=cards),
            _("Button drawn."),
        )
        return redirect("tournaments:seating", pk=pk)


class SlipConfirmView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, slip_id: int):
        slip = get_object_or_404(MoveSlip, pk=slip_id, tournament_id=pk)
        _run(request, lambda: seating.move_slip_confirm(actor=request.user, slip=slip), _("Move confirmed."))
        return redirect("tournaments:seating", pk=pk)


class BustView(_TournamentPage):
    """Bust-out entry (TRN-10): tick the players out in one hand with their chips at its start."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/bust.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        entries = entry_list(tournament=context["tournament"])
        context.update(
            live=entries.filter(status=EntryStatus.ACTIVE).order_by("table__number", "seat", "number"),
            finished=entries.filter(finish_place__isnull=False).order_by("finish_place"),
        )
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        busted = []
        for value in request.POST.getlist("entry"):
            stack = request.POST.get(f"stack_{value}", "").strip()
            if not value.isdigit() or not stack.isdigit():
                messages.error(request, _("Give the chips at the start of the hand for every busted player."))
                return redirect("tournaments:bust", pk=pk)
            busted.append((int(value), int(stack)))
        _run(
            request,
            lambda: payouts.entry_bust(actor=request.user, tournament=tournament, busted=busted),
            _("Bust-out recorded."),
        )
        return redirect("tournaments:bust", pk=pk)


class BustUndoView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        _run(
            request,
            lambda: payouts.bust_undo(actor=request.user, tournament=tournament),
            _("Last bust-out undone."),
        )
        return redirect("tournaments:bust", pk=pk)


class PayoutsView(_TournamentPage):
    """Payouts (TRN-5, TRN-10): the table, finalising, and the deal calculators (ICM, chip chop)."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/payouts.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        rules = tournament_rules_get(tournament=tournament)
        live = list(entry_list(tournament=tournament).filter(status=EntryStatus.ACTIVE))
        method = self.request.GET.get("method", "")
        deal = None
        if method in ("icm", "chip_chop"):
            stacks = {}
            for entry in live:
                value = self.request.GET.get(f"stack_{entry.pk}", "").strip()
                if value.isdigit() and int(value) > 0:
                    stacks[entry.pk] = int(value)
            try:
                shares = deal_calculate(tournament=tournament, stacks=stacks, method=method)
                deal = [(entry, stacks[entry.pk], shares[entry.pk]) for entry in live]
            except DomainError as error:
                messages.error(self.request, str(error))
        percentages = rules.payout_percentages
        context.update(
            rules=rules,
            live=live,
            stack_rows=[(entry, self.request.GET.get(f"stack_{entry.pk}", "")[:12]) for entry in live],
            method=method,
            deal=deal,
            blocker=payouts.finalise_blocker(tournament, rules),
            table_form=kwargs.get("table_form")
            or PayoutTableForm(initial={"percentages": ", ".join(f"{bp / 100:g}" for bp in percentages)}),
        )
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        form = PayoutTableForm(request.POST)
        saved = (
            form.is_valid()
            and _run(
                request,
                lambda: payouts.payout_table_set(
                    actor=request.user, tournament=tournament, percentages=form.cleaned_data["percentages"]
                ),
                _("Payout table saved."),
            )
            is not None
        )
        if saved:
            return redirect("tournaments:payouts", pk=pk)
        return self.render_to_response(self.get_context_data(pk=pk, table_form=form))


class PayoutsFinaliseView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        _run(
            request,
            lambda: payouts.payouts_finalise(actor=request.user, tournament=tournament),
            _("Payouts are final."),
        )
        return redirect("tournaments:payouts", pk=pk)


class DealAcceptView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        amounts = {
            int(name.removeprefix("share_")): int(value)
            for name, value in request.POST.items()
            if name.startswith("share_") and name.removeprefix("share_").isdigit() and value.isdigit()
        }
        _run(
            request,
            lambda: payouts.deal_accept(
                actor=request.user,
                tournament=tournament,
                amounts=amounts,
                method=request.POST.get("method", ""),
            ),
            _("Deal accepted: the remaining payouts are replaced."),
        )
        return redirect("tournaments:payouts", pk=pk)


class CashierTournamentListView(RoleRequiredMixin, TemplateView):
    """The cashier's way in: tournaments to register players for, pay refunds or prizes of."""

    allowed_roles = CASHIER_ROLES
    template_name = "tournaments/cashier_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(tournaments=tournament_list()[:100], **kwargs)
