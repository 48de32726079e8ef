"""The loyalty pages (LOY-1): a comp at the desk from the player card, the venue's terms for
managers, and the player's private page on his phone (no log-in: the signed link is the key)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, RoleRequiredMixin
from cardroom.screen_language import ScreenLanguageMixin
from cashgame.models import Game
from loyalty import selectors, services
from loyalty.forms import RateForm, RedeemForm, SettingsForm, TierForm
from loyalty.models import Tier
from players.models import Player
from tournaments.models import Tournament


def _card(pk: int) -> str:
    return reverse("players:detail", args=[pk]) + "#loyalty"


class RedeemView(RoleRequiredMixin, View):
    """POST: points for a voucher or a ticket; back to the player card with the outcome."""

    allowed_roles = PLAYER_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        form = RedeemForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose the comp and its value."))
            return redirect(_card(pk))
        data = form.cleaned_data
        tournament = None
        if data["comp"] == "ticket":
            tournament = Tournament.objects.filter(pk=data["tournament"] or 0).first()
            if tournament is None:
                messages.error(request, _("Choose the tournament for the ticket."))
                return redirect(_card(pk))
        try:
            movement = services.loyalty_redeem(
                actor=request.user,
                player=player,
                voucher_value=data["value"] if tournament is None else None,
                tournament=tournament,
                note=data["note"],
                idempotency_key=data["idempotency_key"],
            )
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("%(comp)s for %(points)d points.")
                % {"comp": movement.get_kind_display(), "points": -movement.points},
            )
        return redirect(_card(pk))


class LinkRevokeView(RoleRequiredMixin, View):
    """POST: a new private link for the player (the old one stops working)."""

    allowed_roles = PLAYER_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        services.member_link_revoke(actor=request.user, player_id=player.pk)
        messages.success(request, _("A new private link was made: the old one no longer opens."))
        return redirect(_card(pk))


class SettingsView(RoleRequiredMixin, TemplateView):
    """The venue's loyalty terms: settings, a rate per game and stakes, the tiers."""

    allowed_roles = MANAGER_ROLES
    template_name = "loyalty/settings.html"

    def get_context_data(self, **kwargs):
        terms = selectors.settings_get()
        games = Game.objects.select_related("loyalty_rate").order_by("big_blind_cents", "name", "pk")
        return super().get_context_data(
            form=kwargs.pop("form", None) or SettingsForm(instance=terms),
            terms=terms,
            games=[(game, getattr(game, "loyalty_rate", None)) for game in games],
            tiers=Tier.objects.order_by("min_points", "pk"),
            tier_form=TierForm(),
            **kwargs,
        )

    def post(self, request):
        action = request.POST.get("action", "")
        try:
            if action == "settings":
                form = SettingsForm(request.POST, instance=selectors.settings_get())
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(form=form))
                services.loyalty_settings_update(actor=request.user, **form.cleaned_data)
            elif action == "rate":
                form = RateForm(request.POST)
                if not form.is_valid():
                    raise DomainError(
                        "invalid_rate", _("A rate is a whole number of points per hour."), rule="LOY-1"
                    )
                game = get_object_or_404(Game, pk=form.cleaned_data["game"])
                services.earn_rate_set(
                    actor=request.user, game=game, points_per_hour=form.cleaned_data["points_per_hour"]
                )
            elif action == "tier":
                form = TierForm(request.POST)
                if not form.is_valid():
                    raise DomainError(
                        "invalid_tier", _("A tier needs a name and the points it starts at."), rule="LOY-1"
                    )
                services.tier_save(actor=request.user, **form.cleaned_data)
            elif action == "tier-delete":
                tier = get_object_or_404(Tier, pk=request.POST.get("tier") or 0)
                services.tier_delete(actor=request.user, tier=tier)
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Loyalty settings saved."))
        return redirect("loyalty:settings")


class MyPointsView(ScreenLanguageMixin, TemplateView):
    """The player's private page: his points, tier, progress, value and history, phone-sized."""

    template_name = "loyalty/me.html"

    def get_context_data(self, **kwargs):
        player_id = selectors.player_id_from_token(kwargs["token"])
        player = Player.objects.filter(pk=player_id, erased_at__isnull=True).first() if player_id else None
        if player is None:
            raise Http404
        now = timezone.now()
        return super().get_context_data(
            player=player,
            standing=selectors.standing_get(player_id=player.pk, now=now),
            history=list(selectors.movements_list(player_id=player.pk)[:30]),
            **kwargs,
        )
