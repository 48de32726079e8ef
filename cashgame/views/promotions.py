"""High-hand promotions (LOY-2): the manager's list and form, and the floor's high-hand page where
a claim is entered and the current best of each running promotion is shown."""

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, TemplateView

from cardroom.forms import DomainFormMixin
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin
from cashgame.models import CashTable, Promotion
from cashgame.promotion_forms import HighHandClaimForm, PromotionForm
from cashgame.selectors.promotions import high_hands_now, promotion_list
from cashgame.services import highhand, promotions


class PromotionListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/promotion_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(promotions=promotion_list(), **kwargs)


class PromotionCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/form.html"
    form_class = PromotionForm
    extra_context = {"title": gettext_lazy("New high-hand promotion")}

    def perform(self, form):
        return promotions.promotion_create(actor=self.request.user, **form.service_values())

    def get_success_url(self):
        messages.success(self.request, _("%s saved.") % self.result)
        return reverse("cashgame:promotions")


class PromotionEditView(PromotionCreateView):
    extra_context = {"title": gettext_lazy("Edit high-hand promotion")}

    def promotion(self) -> Promotion:
        return get_object_or_404(Promotion, pk=self.kwargs["pk"])

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "promotion": self.promotion()}

    def perform(self, form):
        return promotions.promotion_update(
            actor=self.request.user, promotion=self.promotion(), **form.service_values()
        )


class HighHandView(RoleRequiredMixin, DomainFormMixin, FormView):
    """The floor's high-hand page: the current best of each running promotion and the claim
    form (the table's floor screen links here with its table chosen)."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/high_hand.html"
    form_class = HighHandClaimForm

    def get_initial(self):
        initial = super().get_initial()
        table = self.request.GET.get("table", "")
        if table.isdigit() and CashTable.objects.filter(pk=table).exists():
            initial["table"] = int(table)
        running = Promotion.objects.filter(active=True)
        if running.count() == 1:
            initial["promotion"] = running.first().pk
        return initial

    def get_context_data(self, **kwargs):
        return super().get_context_data(high_hands=high_hands_now(), **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return highhand.highhand_claim_create(
            actor=self.request.user,
            promotion=data["promotion"],
            table=data["table"],
            seat=data["seat"],
            hole_cards=data["hole_cards"],
            board=data["board"],
        )

    def get_success_url(self):
        claim, ranking = self.result
        if ranking == "tie":
            text = _("%(hand)s ties the period's best: the prize will be shared.")
        else:
            text = _("%(hand)s is the period's high hand.")
        messages.success(self.request, text % {"hand": _(claim.hand_label)})
        return f"{reverse('cashgame:high-hand')}?table={claim.table_id}"
