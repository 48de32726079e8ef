"""What the tournaments' field pages share: calling one service with its refusal shown as a
message, and the page of one tournament with its field figures."""

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import tournament_field_get

FLOOR_AND_CASHIER = (*FLOOR_ROLES, *CASHIER_ROLES)


def run_service(request, call, done: str):
    """Call one service; a refusal becomes an error message naming the rule. Returns the
    service's result, or None when it was refused."""
    try:
        result = call()
    except DomainError as error:
        messages.error(request, str(error))
        return None
    messages.success(request, done)
    return result if result is not None else True


class TournamentPage(RoleRequiredMixin, TemplateView):
    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return super().get_context_data(
            tournament=tournament,
            field=tournament_field_get(tournament=tournament),
            Status=TournamentStatus,
            **kwargs,
        )
