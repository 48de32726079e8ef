"""Player registry pages for the floor, cashier and manager desks."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.refusals import refuse
from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, RoleRequiredMixin, has_role
from loyalty.forms import RedeemForm
from loyalty.selectors import loyalty_card_get
from players import services
from players.forms import ExclusionForm, LiftExclusionForm, PlayerForm
from players.models import Player, PlayerErasure
from players.selectors import player_search
from players.selectors.data_rights import erasure_refusals


class PlayerListView(RoleRequiredMixin, TemplateView):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "players/player_list.html"

    def get_context_data(self, **kwargs):
        query = self.request.GET.get("q", "")[:100]
        return super().get_context_data(query=query, players=player_search(query=query), **kwargs)

    def get_template_names(self):
        # htmx search-as-you-type swaps the results only.
        if self.request.htmx:
            return ["players/_player_results.html"]
        return [self.template_name]


class PlayerCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "players/player_form.html"
    form_class = PlayerForm

    def perform(self, form):
        return services.player_create(actor=self.request.user, **form.cleaned_data)

    def get_success_url(self):
        player = self.result
        messages.success(
            self.request,
            _("New player card: %(name)s, card number %(card)s.")
            % {"name": player.full_name, "card": player.card_number},
        )
        return reverse("players:detail", args=[self.result.pk])


class PlayerUpdateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "players/player_form.html"
    form_class = PlayerForm

    @cached_property
    def player(self) -> Player:
        # Looked up on first use, after RoleRequiredMixin has checked the role.
        return get_object_or_404(Player, pk=self.kwargs["pk"])

    def get_initial(self):
        return PlayerForm.initial_for(self.player)

    def get_context_data(self, **kwargs):
        return super().get_context_data(player=self.player, **kwargs)

    def perform(self, form):
        return services.player_update(actor=self.request.user, player=self.player, **form.cleaned_data)

    def get_success_url(self):
        messages.success(
            self.request, _("%(name)s: changes to the player card saved.") % {"name": self.result.full_name}
        )
        return reverse("players:detail", args=[self.player.pk])


class PlayerDetailView(RoleRequiredMixin, TemplateView):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "players/player_detail.html"

    def get_context_data(self, **kwargs):
        player = get_object_or_404(Player.objects.select_related("id_verified_by"), pk=kwargs["pk"])
        is_manager = has_role(self.request.user, *MANAGER_ROLES)
        # GDP-1: a manager's data-rights actions, the erasure greyed out with its reasons.
        erasure = PlayerErasure.objects.select_related("erased_by").filter(player=player).first()
        refusals = erasure_refusals(player=player) if is_manager and erasure is None else []
        # LOY-1: his points, tier and comps, and his private page's address for the QR code.
        loyalty = loyalty_card_get(player=player, now=timezone.now())
        me_address = (
            self.request.build_absolute_uri(reverse("loyalty_room:me", args=[loyalty["token"]]))
            if loyalty["token"]
            else ""
        )
        return super().get_context_data(
            loyalty=loyalty,
            me_address=me_address,
            redeem_form=RedeemForm(),
            can_manage_loyalty=is_manager,
            player=player,
            erasure=erasure,
            erase_refusals=refusals,
            erased_refusal={
                "message": _("The personal data on this card was erased: nothing on it can be changed."),
                "rule": "GDP-1",
            }
            if player.is_erased
            else None,
            can_manage_data=is_manager,
            can_manage_exclusion=is_manager and not player.is_erased,
            exclusion_form=ExclusionForm() if is_manager else None,
            lift_form=LiftExclusionForm() if is_manager else None,
            **kwargs,
        )


class PlayerActionView(RoleRequiredMixin, View):
    """POST-only actions on a player card: verify ID, exclude, lift exclusion."""

    allowed_roles = PLAYER_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        player = get_object_or_404(Player, pk=pk)
        try:
            if action == "verify-id":
                services.player_verify_id(actor=request.user, player=player)
                messages.success(request, _("%(name)s: ID document verified.") % {"name": player.full_name})
            elif action == "exclude":
                form = ExclusionForm(request.POST)
                if not form.is_valid():
                    problems = "; ".join(
                        f"{form.fields[name].label}: {' '.join(errors)}"
                        if name in form.fields
                        else " ".join(errors)
                        for name, errors in form.errors.items()
                    )
                    raise DomainError("invalid", _("Check the exclusion form: %s") % problems, rule="PLY-1")
                services.player_exclude(actor=request.user, player=player, **form.cleaned_data)
                messages.success(
                    request, _("%(name)s: exclusion from play recorded.") % {"name": player.full_name}
                )
            elif action == "lift-exclusion":
                form = LiftExclusionForm(request.POST)
                if not form.is_valid():
                    raise DomainError(
                        "invalid", _("Give the reason for lifting the exclusion."), rule="PLY-1"
                    )
                services.player_exclusion_lift(actor=request.user, player=player, **form.cleaned_data)
                messages.success(request, _("%(name)s: exclusion lifted.") % {"name": player.full_name})
            else:
                return redirect("players:detail", pk=pk)
        except DomainError as error:
            refuse(request, error)
        return redirect("players:detail", pk=pk)
