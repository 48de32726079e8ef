"""Drop-box counts against the rake of the hand log (RAK-5)."""

from django.contrib import messages
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView

from cardroom.forms import DomainFormMixin
from cardroom.roles import RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.services import dropbox
from cashgame.services.dropbox import DROP_COUNT_ROLES


class DropCountView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = DROP_COUNT_ROLES
    template_name = "cashgame/drop_counts.html"
    form_class = forms.DropCountForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(counts=selectors.dropbox_count_list()[:100], **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return dropbox.dropbox_count_record(
            actor=self.request.user,
            table=data["table"],
            period_start=data["period_start"],
            period_end=data["period_end"],
            counted_cents=data["counted"],
            note=data["note"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Drop box of %s recorded.") % self.result.table)
        return reverse("cashgame:drop-counts")
