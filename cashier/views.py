"""Cashier desk pages: open/close shift, the fast transaction form, receipts, corrections."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier import services
from cashier.api import scoped_shifts, scoped_transactions
from cashier.forms import ReversalRequestForm, ShiftCloseForm, ShiftOpenForm, TransactionForm
from cashier.models import Posting, ReversalRequest, ReversalStatus, Shift
from cashier.selectors import drawer_expected, open_shift_for, shift_transactions
from players.models import Player
from players.selectors import player_search

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
        data = {**form.cleaned_data, "shift": self.shift.pk}
        return services.transaction_create(
            actor=self.request.user, data=data, idempotency_key=form.cleaned_data["idempotency_key"]
        )

    def get_success_url(self):
        messages.success(
            self.request,
            _("Receipt %(n)s: %(kind)s recorded.")
            % {"n": self.result.receipt_number, "kind": self.result.get_kind_display()},
        )
        return reverse("cashier:receipt", args=[self.result.pk])


class ShiftOpenView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = CASHIER_ROLES
    template_name = "cashier/shift_open.html"
    form_class = ShiftOpenForm

    def perform(self, form):
        return services.shift_open(
            actor=self.request.user, opening_float_cents=form.cleaned_data["opening_float"]
        )

    def get_success_url(self):
        messages.success(self.request, _("Shift opened."))
        return reverse("cashier:desk")


class ShiftCloseView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/shift_close.html"
    form_class = ShiftCloseForm

    @cached_property
    def shift(self) -> Shift:
        # Looked up on first use, after RoleRequiredMixin has checked the role.
        return get_object_or_404(scoped_shifts(self.request.user), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            shift=self.shift, expected_cents=drawer_expected(shift=self.shift), **kwargs
        )

    def perform(self, form):
        return services.shift_close(
            actor=self.request.user,
            shift=self.shift,
            counted_cents=form.cleaned_data["counted"],
            denominations=form.denominations(),
        )

    def get_success_url(self):
        return reverse("cashier:shift-detail", args=[self.shift.pk])


class ShiftListView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/shift_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(shifts=scoped_shifts(self.request.user)[:200], **kwargs)


class ShiftDetailView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/shift_detail.html"

    def get_context_data(self, **kwargs):
        shift = get_object_or_404(scoped_shifts(self.request.user), pk=kwargs["pk"])
        return super().get_context_data(
            shift=shift,
            drawer_cents=drawer_expected(shift=shift),
            transactions=shift_transactions(shift=shift),
            **kwargs,
        )


class ReceiptView(RoleRequiredMixin, TemplateView):
    """A printable receipt for any transaction (CAG-4)."""

    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/receipt.html"

    def get_context_data(self, **kwargs):
        record = get_object_or_404(
            scoped_transactions(self.request.user).select_related("posting"), pk=kwargs["pk"]
        )
        entries = record.posting.entries.select_related("account").order_by("pk")
        return super().get_context_data(
            record=record, entries=entries, reversal_form=ReversalRequestForm(), **kwargs
        )


class ReversalListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashier/reversal_list.html"

    def get_context_data(self, **kwargs):
        requests = ReversalRequest.objects.select_related("posting", "requested_by", "decided_by").order_by(
            "-requested_at"
        )[:200]
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
            services.reversal_request(
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
                services.reversal_approve(actor=request.user, request=reversal_request)
                messages.success(request, _("Reversal posted."))
            else:
                services.reversal_reject(actor=request.user, request=reversal_request)
                messages.success(request, _("Reversal rejected."))
        except DomainError as error:
            messages.error(request, str(error))
        return redirect("cashier:reversals")


class PlayerPickView(RoleRequiredMixin, TemplateView):
    """htmx: players matching the desk's search box, each a button that picks him."""

    allowed_roles = CASHIER_ROLES
    template_name = "cashier/_player_picks.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            players=player_search(query=self.request.GET.get("q", "")[:100], limit=8), **kwargs
        )
