"""The room's TV clock (TRN-8): public and read-only (no log-in), full screen, in the language
its address asks for (`?lang=sk`), which its polls carry too."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.screens import ScreenLanguageMixin
from tournaments.models import Tournament
from tournaments.tv import tv_state_get
from tournaments.views import clock_labels


def tv_labels() -> dict[str, str]:
    """The words the TV's scripts write, translated (the scripts hold no text)."""
    return {
        **clock_labels(),
        "closed": _("Closed"),
        "open": _("Open"),
        "dealTotal": _("%(players)s players shared %(amount)s"),
    }


class TvClockView(ScreenLanguageMixin, TemplateView):
    template_name = "tournaments/tv.html"

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return super().get_context_data(
            tournament=tournament, state=tv_state_get(tournament=tournament), clock_labels=tv_labels()
        )


class TvStateView(ScreenLanguageMixin, View):
    """The state the TV page (and the floor's dashboard) polls: never cached."""

    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        response = JsonResponse(tv_state_get(tournament=tournament))
        response["Cache-Control"] = "no-store"
        return response
