"""The dealer board (DLR-1, DLR-2): one live page for the floor, polled like the floor view, and
the buttons that clock a dealer in or out or send him to a table."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin, has_role
from dealers.board import board_get
from dealers.forms import DealerAddForm, SendForm
from dealers.models import Dealer
from dealers.selectors import open_tables
from dealers.services.shifts import dealer_create, dealer_send, shift_clock_in, shift_clock_out


class BoardView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "dealers/board.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            board=board_get(now=timezone.now()),
            tables=open_tables(),
            can_add=has_role(self.request.user, *MANAGER_ROLES),
            add_form=DealerAddForm(),
            **kwargs,
        )


class BoardLiveView(BoardView):
    """The board alone, which the page asks for every 2 seconds and swaps in place."""

    template_name = "dealers/_board.html"


class _DealerAction(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def act(self, request, dealer: Dealer) -> str:  # pragma: no cover - each view defines it
        raise NotImplementedError

    def post(self, request, pk):
        dealer = get_object_or_404(Dealer, pk=pk)
        try:
            messages.success(request, self.act(request, dealer))
        except DomainError as error:
            refuse(request, error)
        return redirect("dealers:board")


class ClockInView(_DealerAction):
    def act(self, request, dealer):
        shift_clock_in(actor=request.user, dealer=dealer)
        return _("%(name)s is clocked in.") % {"name": dealer.name}


class ClockOutView(_DealerAction):
    def act(self, request, dealer):
        shift_clock_out(actor=request.user, dealer=dealer)
        return _("%(name)s is clocked out.") % {"name": dealer.name}


class SendView(_DealerAction):
    def act(self, request, dealer):
        form = SendForm(request.POST)
        if not form.is_valid():
            raise DomainError("table_not_open", _("Choose an open table."), rule="DLR-2")
        dealer_send(actor=request.user, dealer=dealer, table_key=form.cleaned_data["table"])
        return _("%(name)s is sent to the table.") % {"name": dealer.name}


class DealerAddView(RoleRequiredMixin, View):
    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request):
        form = DealerAddForm(request.POST)
        try:
            if not form.is_valid():
                raise DomainError("dealer_name_taken", _("Give the dealer a name."), rule="DLR-1")
            dealer = dealer_create(actor=request.user, name=form.cleaned_data["name"])
        except DomainError as error:
            refuse(request, error)
        else:
            messages.success(request, _("%(name)s is a dealer now.") % {"name": dealer.name})
        return redirect("dealers:board")
