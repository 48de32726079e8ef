"""What the tournaments' field pages share: calling one service with its refusal shown as a
message, and the page of one tournament with its field figures."""

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.refusals import refuse
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import pending_move_slips, tournament_field_get

FLOOR_AND_CASHIER = (*FLOOR_ROLES, *CASHIER_ROLES)


def run_service(request, call, done: str):
    """Call one service; a refusal becomes an error message naming the rule. Returns the
    service's result, or None when it was refused."""
    try:
        result = call()
    except DomainError as error:
        refuse(request, error)
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


def bust_from_post(data, tournament: Tournament) -> tuple[list[tuple[int, int | None]], dict[int, list[int]]]:
    """The players out in one hand from a posted form (TRN-10): `entry` (one or more ids),
    `stack_<id>` (chips at the start of the hand, asked only when two or more are out) and
    `by_<id>` (entry numbers of the eliminators, "12" or "12, 7" on a split pot, TRN-6).
    Raises DomainError naming what is wrong; nothing is written here."""
    values = data.getlist("entry")[:20]
    if not values or not all(value.isdigit() and len(value) <= 9 for value in values):
        raise DomainError("bad_bust", _("Choose the player who is out."), rule="TRN-10")
    several = len(values) > 1
    busted: list[tuple[int, int | None]] = []
    named: dict[int, list[int]] = {}
    for value in values:
        stack = data.get(f"stack_{value}", "").strip()
        if several and not stack:
            raise DomainError(
                "bad_stack",
                _(
                    "Two or more players are out in this hand: "
                    "give each one's chips at the start of the hand."
                ),
                rule="TRN-10",
            )
        chips = parse_chips(stack, field=_("Chips at the start of the hand")) if stack else None
        busted.append((int(value), chips))
        numbers = data.get(f"by_{value}", "").replace(",", " ").split()[:20]
        if not all(number.isdigit() and len(number) <= 9 for number in numbers):
            raise DomainError(
                "bad_eliminators",
                _("Give the eliminators as entry numbers, for example 12 or 12, 7."),
                rule="TRN-6",
            )
        named[int(value)] = [int(number) for number in numbers]
    wanted = {number for numbers in named.values() for number in numbers}
    ids = dict(tournament.entries.filter(number__in=wanted).values_list("number", "pk"))
    if wanted - set(ids):
        raise DomainError(
            "not_found", _("There is no entry number %d.") % min(wanted - set(ids)), status_code=404
        )
    return busted, {busted_id: [ids[n] for n in numbers] for busted_id, numbers in named.items()}


def moves_waiting(request, tournament: Tournament) -> None:
    """After a bust-out, how many players the floor has to move before confirming them (TRN-9)."""
    count = pending_move_slips(tournament=tournament).count()
    if count:
        messages.info(
            request,
            ngettext("%(n)d player to move: see the slips.", "%(n)d players to move: see the slips.", count)
            % {"n": count},
        )
