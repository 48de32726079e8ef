"""Pages of the shared kernel: home, venue settings and the audit trail."""

from datetime import datetime, time

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.generic import FormView, TemplateView

from cardroom.forms import DomainFormMixin
from cardroom.roles import ADMIN_ROLES, MANAGER_ROLES, RoleRequiredMixin, user_roles
from cardroom.selectors import audit_list, venue_get
from cardroom.services import venue_update
from cardroom.venue_forms import AuditFilterForm, VenueForm


class HomeView(LoginRequiredMixin, TemplateView):
    template_name = "cardroom/home.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(roles=sorted(user_roles(self.request.user)), **kwargs)


class VenueSettingsView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cardroom/venue_form.html"
    form_class = VenueForm

    def get_initial(self):
        return VenueForm.initial_for(venue_get())

    def perform(self, form):
        return venue_update(actor=self.request.user, venue=venue_get(), **form.cleaned_data)

    def get_success_url(self):
        messages.success(self.request, _("Venue settings saved."))
        return reverse("venue-settings")


class AuditListView(RoleRequiredMixin, TemplateView):
    allowed_roles = (*MANAGER_ROLES, *ADMIN_ROLES)
    template_name = "cardroom/audit_list.html"
    page_size = 100

    def get_context_data(self, **kwargs):
        form = AuditFilterForm(self.request.GET or None)
        filters = {}
        if form.is_valid():
            data = form.cleaned_data
            zone = timezone.get_current_timezone()
            filters = {
                "action": data["action"],
                "object_type": data["object_type"],
                "actor_name": data["actor"],
                "since": datetime.combine(data["since"], time.min, tzinfo=zone) if data["since"] else None,
                "until": datetime.combine(data["until"], time.max, tzinfo=zone) if data["until"] else None,
            }
        records = audit_list(**filters).select_related(None)
        page = Paginator(records, self.page_size).get_page(self.request.GET.get("page"))
        query = self.request.GET.copy()
        query.pop("page", None)
        return super().get_context_data(form=form, page=page, query=query.urlencode(), **kwargs)


def page_not_found(request, exception):
    """API clients get the error shape of every other API answer; people get the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": _("No such address."), "rule": ""}, status=404)
    return defaults.page_not_found(request, exception)
