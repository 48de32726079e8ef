"""The printing pages: the printers a manager sets up per desk (linked from the venue's
settings), "print again" for a print that did not come out, and the desk's choice of printer."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier.selectors import open_shift_for
from printing import selectors, services
from printing.forms import DeskPrinterForm, PrinterForm
from printing.models import Printer, PrintJob

PRINTING_ROLES = (*CASHIER_ROLES, *FLOOR_ROLES)


class PrinterListView(RoleRequiredMixin, TemplateView):
    """Every printer of the venue, and a new one (or the one being changed, `?edit=<id>`)."""

    allowed_roles = MANAGER_ROLES
    template_name = "printing/printers.html"

    def editing(self) -> Printer | None:
        wanted = self.request.GET.get("edit") or self.request.POST.get("printer") or ""
        return get_object_or_404(Printer, pk=int(wanted)) if wanted.isdigit() and len(wanted) < 10 else None

    def get_context_data(self, **kwargs):
        editing = self.editing()
        return super().get_context_data(
            printers=selectors.printer_list(),
            editing=editing,
            form=kwargs.pop("form", None) or PrinterForm(instance=editing),
            **kwargs,
        )

    def post(self, request):
        editing = self.editing()
        form = PrinterForm(request.POST, instance=editing)
        if form.is_valid():
            try:
                services.printer_save(actor=request.user, printer=editing, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("Printer saved."))
                return redirect("printing:printers")
        return self.render_to_response(self.get_context_data(form=form))


def _back(request) -> str:
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}):
        return wanted
    return reverse("cashier:desk")


class JobRetryView(RoleRequiredMixin, View):
    """POST: "print again" a print that did not come out; back to the page it was asked from."""

    allowed_roles = PRINTING_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        back = _back(request)
        job = get_object_or_404(PrintJob, pk=pk)
        try:
            job = services.print_job_retry(actor=request.user, job=job)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            if job.error:
                messages.error(
                    request,
                    _(
                        "%(what)s did not print: %(error)s. "
                        "Check that the printer is on, or print it from the browser."
                    )
                    % {"what": job.title, "error": job.error},
                )
            else:
                messages.success(request, _("%(what)s printed.") % {"what": job.title})
        return redirect(back)


class DeskPrinterView(RoleRequiredMixin, View):
    """POST: the cashier says which cage printer stands at his desk (for his open shift)."""

    allowed_roles = CASHIER_ROLES
    http_method_names = ["post"]

    def post(self, request):
        shift = open_shift_for(cashier=request.user)
        form = DeskPrinterForm(request.POST, printers=selectors.cage_printers())
        if shift is None or not form.is_valid():
            messages.error(request, _("Choose one of the cage's printers for an open shift."))
        else:
            services.shift_printer_set(
                actor=request.user, shift_id=shift.pk, printer=form.cleaned_data["printer"]
            )
            messages.success(request, _("This desk prints on %s.") % form.cleaned_data["printer"])
        return redirect(_back(request))
