"""A printable receipt for any cashier transaction (CAG-4). It is the cage's page, not the
ledger's: the cage knows both games, so the receipt names the tournament, the entry number
and its table and seat, or the cash table and seat, beside the ledger's facts."""

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from cage.selectors import receipt_facts_get
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.api import scoped_transactions
from cashier.forms import ReversalRequestForm

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


class ReceiptView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/receipt.html"

    def get_context_data(self, **kwargs):
        record = get_object_or_404(
            scoped_transactions(self.request.user).select_related("posting"), pk=kwargs["pk"]
        )
        entries = record.posting.entries.select_related("account").order_by("pk")
        return super().get_context_data(
            record=record,
            facts=receipt_facts_get(record=record),
            entries=entries,
            reversal_form=ReversalRequestForm(),
            **kwargs,
        )
