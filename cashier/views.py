"""Cashier pages: open and close a shift, the shift lists, the desk's player search. The desk,
receipts and corrections are the cage's (cage/views/), which knows both games."""

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from cardroom.forms import DomainFormMixin
from cardroom.money import format_eur
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashier import services
from cashier.api import scoped_shifts
from cashier.forms import DENOMINATIONS_CENTS, ShiftCloseForm, ShiftOpenForm
from cashier.models import Shift
from cashier.selectors import drawer_expected, shift_transactions
from players.selectors import player_search

CASH_DESK_ROLES = (*CASHIER_ROLES, *MANAGER_ROLES)


class ShiftOpenView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = CASHIER_ROLES
    template_name = "cashier/shift_open.html"
    form_class = ShiftOpenForm

    def perform(self, form):
        return services.shift_open(
            actor=self.request.user, opening_float_cents=form.cleaned_data["opening_float"]
        )

    def get_success_url(self):
        messages.success(
            self.request,
            _("Shift opened with a float of %(float)s.")
            % {"float": format_eur(self.result.opening_float_cents)},
        )
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
        # A blind count (CAG-3): the expected figure is not on this page; the shift's page
        # shows it beside the count once the count is recorded.
        form = kwargs.get("form") or self.get_form()
        return super().get_context_data(
            shift=self.shift,
            count_groups=[(_("Notes"), form.rows(notes=True)), (_("Coins"), form.rows(notes=False))],
            running_total_cents=form.running_total_cents(),
            **kwargs,
        )

    def perform(self, form):
        return services.shift_close(
            actor=self.request.user,
            shift=self.shift,
            counted_cents=form.cleaned_data["counted"],
            denominations=form.denominations(),
            idempotency_key=form.cleaned_data["idempotency_key"],
        )

    def get_success_url(self):
        if self.result.recount_asked:
            # The count page says why and what next (its recount box); still blind: neither the
            # expected figure nor the variance.
            return reverse("cashier:shift-close", args=[self.shift.pk])
        messages.success(
            self.request,
            _("Shift closed: counted %(counted)s, expected %(expected)s, variance %(variance)s.")
            % {
                "counted": format_eur(self.result.counted_cents),
                "expected": format_eur(self.result.expected_cents),
                "variance": format_eur(self.result.variance_cents),
            },
        )
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
        counts = shift.denominations or {}
        return super().get_context_data(
            shift=shift,
            count_rows=[
                {"cents": cents, "pieces": counts[str(cents)], "line_cents": cents * counts[str(cents)]}
                for cents in DENOMINATIONS_CENTS
                if counts.get(str(cents))
            ],
            drawer_cents=drawer_expected(shift=shift),
            transactions=shift_transactions(shift=shift),
            **kwargs,
        )


class PlayerPickView(RoleRequiredMixin, TemplateView):
    """htmx: players matching the desk's search box, each a button that picks him."""

    allowed_roles = CASHIER_ROLES
    template_name = "cashier/_player_picks.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            players=player_search(query=self.request.GET.get("q", "")[:100], limit=8), **kwargs
        )
