"""Corrections (CAG-1): asked for from a receipt, decided by a manager who sees the amount, the
player and the receipt before approving."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from cage import services
from cage.selectors import correction_next_step, posting_transaction, reversal_list
from cardroom.errors import DomainError
from cardroom.money import format_eur
from cardroom.refusals import refuse
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.api import scoped_transactions
from cashier.forms import ReversalRequestForm
from cashier.models import Posting, ReversalRequest, ReversalStatus
from cashier.services import reversal_reject

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


def _described(posting: Posting) -> str:
    """What a correction reverses, as its messages name it: receipt, amount and player."""
    record = posting_transaction(posting=posting)
    if record is None:
        return posting.description
    values = {"receipt": record.receipt_number, "amount": format_eur(record.amount_cents)}
    if record.player is None:
        return _("receipt %(receipt)s, %(amount)s") % values
    return _("receipt %(receipt)s, %(amount)s, %(player)s") % {**values, "player": record.player.full_name}


class ReversalListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashier/reversal_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(requests=reversal_list(), pending=ReversalStatus.PENDING, **kwargs)


class ReversalRequestView(RoleRequiredMixin, View):
    allowed_roles = CASH_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        record = get_object_or_404(scoped_transactions(request.user), pk=pk)
        form = ReversalRequestForm(request.POST)
        try:
            if not form.is_valid():
                raise DomainError("reason_required", _("Say why the posting must be reversed."), rule="CAG-1")
            posting = get_object_or_404(Posting, pk=record.posting_id)
            reason = form.cleaned_data["reason"]
            services.correction_request(actor=request.user, posting=posting, reason=reason)
            message = _("Reversal requested (%(what)s); a manager must approve it.")
            messages.success(request, message % {"what": _described(posting)})
        except DomainError as error:
            refuse(request, error)
        return redirect("cashier:receipt", pk=pk)


class ReversalDecisionView(RoleRequiredMixin, View):
    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, decision: str):
        reversal_request = get_object_or_404(ReversalRequest, pk=pk)
        try:
            what = {"what": _described(reversal_request.posting)}
            if decision == "approve":
                services.correction_approve(actor=request.user, request=reversal_request)
                # The one next step at the table, when the reversal leaves one (CAG-6).
                message = " ".join(
                    text
                    for text in (
                        _("Reversal posted (%(what)s).") % what,
                        correction_next_step(posting=reversal_request.posting),
                    )
                    if text
                )
            else:
                reversal_reject(actor=request.user, request=reversal_request)
                message = _("Reversal rejected (%(what)s).") % what
            messages.success(request, message)
        except DomainError as error:
            refuse(request, error)
        return redirect("cashier:reversals")
