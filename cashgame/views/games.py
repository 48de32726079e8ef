"""Games and stakes, kept by managers (CSH-1, RAK-3, JKP-1/2)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, TemplateView

from cardroom.forms import DomainFormMixin
from cardroom.roles import MANAGER_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import Game
from cashgame.services import games


class GameListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/game_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(games=selectors.game_list(), **kwargs)


class GameCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/form.html"
    form_class = forms.GameForm
    extra_context = {"title": gettext_lazy("New game")}

    def perform(self, form):
        return games.game_create(actor=self.request.user, **form.service_values())

    def get_success_url(self):
        messages.success(self.request, _("%s created.") % self.result)
        return reverse("cashgame:games")


class GameEditView(GameCreateView):
    extra_context = {"title": gettext_lazy("Edit game")}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "game": get_object_or_404(Game, pk=self.kwargs["pk"])}

    def perform(self, form):
        return games.game_update(
            actor=self.request.user,
            game=get_object_or_404(Game, pk=self.kwargs["pk"]),
            **form.service_values(),
        )

    def get_success_url(self):
        messages.success(self.request, _("%s saved.") % self.result)
        return reverse("cashgame:games")
