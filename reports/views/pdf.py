"""The PDF files a manager files (cardroom.pdf, from the page's own partials): the daily report
with the venue, the gaming day, who pulled it and when, and "page N of M" on every page; and a
closed shift's close (its count and transactions). Each download is recorded in the audit trail
as the spreadsheet files are (views/exporting.py)."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.generic import TemplateView

import cardroom.pdf
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.api import scoped_shifts
from cashier.forms import DENOMINATIONS_CENTS
from cashier.selectors import shift_transactions
from reports.views import DailyReportView
from reports.views.exporting import export_record

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)  # who sees a shift's page sees its PDF


class DailyReportPdfView(DailyReportView):
    """The daily report's page laid out for A4 (landscape: its tables are wide)."""

    pdf_template_name = "reports/daily_pdf.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(pulled_at=timezone.now(), pdf=True, **kwargs)

    def render_to_response(self, context, **kwargs):
        if "report" not in context:  # a bad day: the page with the form's error, not a file
            return super().render_to_response(context, **kwargs)
        if cardroom.pdf.pdf_unavailable() is None:  # only a file handed over is recorded
            export_record(
                request=self.request,
                report=self.report_name,
                table="report",
                file_format="pdf",
                filters=self.filters(context),
                rows=1,
            )
        filename = f"daily-{context['report'].day:%Y-%m-%d}.pdf"
        return cardroom.pdf.pdf_response(self.request, self.pdf_template_name, context, filename=filename)


class ShiftClosePdfView(RoleRequiredMixin, TemplateView):
    """A shift's close as a PDF: opening float, expected, counted, variance, the count by note
    and coin, and every transaction. A cashier gets his own shifts, a manager every shift."""

    allowed_roles = CASH_DESK_ROLES

    def get(self, request, pk: int):
        shift = get_object_or_404(scoped_shifts(request.user), pk=pk)
        counts = shift.denominations or {}
        context = {
            "shift": shift,
            "count_rows": [
                {"cents": cents, "pieces": counts[str(cents)], "line_cents": cents * counts[str(cents)]}
                for cents in DENOMINATIONS_CENTS
                if counts.get(str(cents))
            ],
            "transactions": shift_transactions(shift=shift),
            "pulled_at": timezone.now(),
        }
        if cardroom.pdf.pdf_unavailable() is None:
            export_record(
                request=request, report="shift", table=str(shift.pk), file_format="pdf", filters={}, rows=1
            )
        return cardroom.pdf.pdf_response(
            request, "reports/shift_close_pdf.html", context, filename=f"shift-{shift.pk}.pdf"
        )
