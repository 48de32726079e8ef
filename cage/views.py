"""The cage's pages: the desk's form for every transaction (CAG-6) and corrections (CAG-1)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from cage import services
from cage.forms import TransactionForm
from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.api import scoped_transactions
from cashier.forms import ReversalRequestForm
from cashier.models import Posting, ReversalRequest, ReversalStatus
from cashier.selectors import drawer_expected, open_shift_for, shift_transactions
from cashier.services import reversal_reject
from players.models import Player

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


class DeskView(RoleRequiredMixin, DomainFormMixin, FormView):
    """The cashier's one screen: the open shift, a fast transaction form and the shift's list."""

    allowed_roles = CASHIER_ROLES
    template_name = "cashier/desk.html"
    form_class = TransactionForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            self.shift = open_shift_for(cashier=request.user)
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        if self.shift is None:
            return redirect("cashier:shift-open")
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        if self.shift is None:
            return redirect("cashier:shift-open")
        return super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        form = kwargs.get("form")
        player_id = form["player"].value() if form is not None else None
        player = Player.objects.filter(pk=player_id).first() if str(player_id or "").isdigit() else None
        return super().get_context_data(
            shift=self.shift,
            drawer_cents=drawer_expected(shift=self.shift),
            transactions=shift_transactions(shift=self.shift)[:50],
            chosen_player=player,
            **kwargs,
        )

    def perform(self, form):
        data = form.cleaned_data
        return services.transaction_route(
            actor=self.request.user,
            shift=self.shift,
            request=services.DeskRequest(
                kind=data["kind"],
                player_id=data["player"],
                amount_cents=data["amount"],
                method=data["method"],
                table_id=data["table"].pk if data["table"] else None,
                seat=data["seat"],
                chips_on_table_cents=data["chips_on_table"],
                tournament_id=data["tournament"].pk if data["tournament"] else None,
            ),
            idempotency_key=data["idempotency_key"],
        )

    def get_success_url(self):
        messages.success(
            self.request,
            _("Receipt %(n)s: %(kind)s, %(player)s.")
            % {
                "n": self.result.receipt_number,
                "kind": self.result.get_kind_display(),
                "player": self.result.player.full_name if self.result.player else "",
            },
        )
        return reverse("cashier:receipt", args=[self.result.pk])


class ReversalListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashier/reversal_list.html"

    def get_context_data(self, **kwargs):
        requests = ReversalRequest.objects.select_related(
            "posting__cashier_transaction__player", "requested_by", "decided_by"
        ).order_by("-requested_at")[:200]
        return super().get_context_data(requests=requests, pending=ReversalStatus.PENDING, **kwargs)


class ReversalRequestView(RoleRequiredMixin, View):
    allowed_roles = CASH_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        record = get_object_or_404(scoped_transactions(request.user), pk=pk)
        form = ReversalRequestForm(request.POST)
        try:
            if not form.is_valid():
                raise DomainError("reason_required", _("Say why the posting must be reversed."), rule="CAG-1")
            services.correction_request(
                actor=request.user,
                posting=get_object_or_404(Posting, pk=record.posting_id),
                reason=form.cleaned_data["reason"],
            )
            messages.success(request, _("Reversal requested; a manager must approve it."))
        except DomainError as error:
            messages.error(request, str(error))
        return redirect("cashier:receipt", pk=pk)


class ReversalDecisionView(RoleRequiredMixin, View):
    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, decision: str):
        reversal_request = get_object_or_404(ReversalRequest, pk=pk)
        try:
            if decision == "approve":
                services.correction_approve(actor=request.user, request=reversal_request)
                messages.success(request, _("Reversal posted."))
            else:
                reversal_reject(actor=request.user, request=reversal_request)
                messages.success(request, _("Reversal rejected."))
        except DomainError as error:
            messages.error(request, str(error))
        return redirect("cashier:reversals")
