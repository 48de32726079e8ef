"""A printable receipt for any cashier transaction (CAG-4). It is the cage's page, not the
ledger's: the cage knows both games, so the receipt names the tournament, the entry number
and its table and seat, or the cash table and seat, beside the ledger's facts."""

from django.shortcuts import get_object_or_404
from django.views import View
from django.views.generic import TemplateView

from cage.selectors import receipt_facts_get
from cardroom.pdf import pdf_response
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.api import scoped_transactions
from cashier.forms import ReversalRequestForm

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


def _record(request, pk: int):
    return get_object_or_404(scoped_transactions(request.user).select_related("posting"), pk=pk)


class ReceiptView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASH_DESK_ROLES
    template_name = "cashier/receipt.html"

    def get_context_data(self, **kwargs):
        record = _record(self.request, kwargs["pk"])
        entries = record.posting.entries.select_related("account").order_by("pk")
        return super().get_context_data(
            record=record,
            facts=receipt_facts_get(record=record),
            entries=entries,
            reversal_form=ReversalRequestForm(),
            **kwargs,
        )


class ReceiptPdfView(RoleRequiredMixin, View):
    """The receipt as a PDF (the page's own facts, cashier/_receipt_body.html), for a player
    who asks for it by e-mail or a regulator who asks for a copy."""

    allowed_roles = CASH_DESK_ROLES

    def get(self, request, pk: int):
        record = _record(request, pk)
        context = {"record": record, "facts": receipt_facts_get(record=record)}
        return pdf_response(
            request, "cashier/receipt_pdf.html", context, filename=f"receipt-{record.receipt_number}.pdf"
        )
