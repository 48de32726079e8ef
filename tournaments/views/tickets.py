"""A tournament's tickets (SER-1): every ticket with its status and totals; a manager grants a
ticket (a promotion) or refunds one with a reason, the cage pays a refunded ticket, the floor
makes the tournament a satellite of another. Each action is one service; a refusal is a message
naming the rule and writes nothing."""

import uuid
from datetime import datetime

from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views import View

from cardroom.errors import DomainError
from cardroom.roles import (
    CASHIER_ROLES,
    FLOOR_ROLES,
    MANAGER_ROLES,
    PLAYER_DESK_ROLES,
    RoleRequiredMixin,
    has_role,
)
from cashier.selectors import open_shift_for
from players.models import Player
from tournaments.models import Ticket, TicketSource, TicketStatus, Tournament
from tournaments.selectors.tickets import satellite_targets, ticket_list, ticket_totals
from tournaments.services import tickets
from tournaments.views.common import TournamentPage, run_service


class TicketListView(TournamentPage):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "tournaments/tickets.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        rows = ticket_list(tournament=tournament)
        user = self.request.user
        now = timezone.now()
        context.update(
            tickets=rows,
            totals=ticket_totals(tickets=rows),
            statuses=TicketStatus,
            sources=TicketSource,
            loyalty_refund_refused=tickets.refund_refusal(Ticket(source=TicketSource.LOYALTY)),
            now=now,
            expired_due=rows.filter(status=TicketStatus.ISSUED, expires_at__lte=now).count(),
            can_manage=has_role(user, *MANAGER_ROLES),
            can_pay=has_role(user, *CASHIER_ROLES) and open_shift_for(cashier=user) is not None,
            can_set_satellite=has_role(user, *FLOOR_ROLES),
            grant_refused=tickets.target_refusal(tournament),
            targets=satellite_targets(tournament=tournament),
            satellites=Tournament.objects.filter(satellite_target=tournament).order_by("start_at"),
            new_key=lambda: uuid.uuid4().hex,
        )
        return context


def _expiry(text: str) -> datetime | None:
    text = (text or "").strip()
    if not text:
        return None
    value = parse_datetime(text)
    if value is None:
        raise DomainError("bad_expiry", _("Give the expiry as a date and time."), rule="SER-1")
    return timezone.make_aware(value) if timezone.is_naive(value) else value


def _player(card: str) -> Player:
    player = Player.objects.filter(card_number=(card or "").strip()).first()
    if player is None:
        raise DomainError("unknown_player", _("No player has this membership card."), rule="SER-1")
    return player


class TicketActionView(RoleRequiredMixin, View):
    """POST one action of the tickets page: grant, refund, pay-refund, expire, satellite."""

    allowed_roles = PLAYER_DESK_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int, action: str):
        tournament = get_object_or_404(Tournament, pk=pk)
        data = request.POST
        user = request.user

        def ticket() -> Ticket:
            found = Ticket.objects.filter(pk=data.get("ticket", "") or 0, tournament=tournament).first()
            if found is None:
                raise DomainError("unknown_ticket", _("Unknown ticket."), rule="SER-1", status_code=404)
            return found

        calls = {
            "grant": (
                lambda: tickets.ticket_grant(
                    actor=user,
                    tournament=tournament,
                    player=_player(data.get("card", "")),
                    reason=data.get("reason", ""),
                    expires_at=_expiry(data.get("expires_at", "")),
                ),
                _("Ticket given."),
            ),
            "refund": (
                lambda: tickets.ticket_refund(actor=user, ticket=ticket(), reason=data.get("reason", "")),
                _("Ticket refunded: the cage pays it to the holder."),
            ),
            "pay-refund": (
                lambda: tickets.ticket_refund_pay(
                    actor=user,
                    ticket=ticket(),
                    shift=open_shift_for(cashier=user) or _no_shift(),
                    idempotency_key=data.get("idempotency_key", ""),
                ),
                _("Refund paid."),
            ),
            "expire": (
                lambda: tickets.tickets_expire_due(actor=user),
                _("Expired tickets closed."),
            ),
            "satellite": (
                lambda: tickets.tournament_satellite_set(
                    actor=user,
                    tournament=tournament,
                    target=_target(data.get("target", "")),
                ),
                _("Satellite saved."),
            ),
        }
        call, done = calls[action]
        result = run_service(request, call, done)
        if action == "pay-refund" and isinstance(result, Ticket):
            return redirect("cashier:receipt", pk=result.refund_transaction_id)
        return redirect("tournaments:tickets", pk=pk)


def _target(value: str) -> Tournament | None:
    """The chosen target; empty: none (an ordinary tournament again)."""
    if not value:
        return None
    found = Tournament.objects.filter(pk=value).first() if value.isdigit() else None
    if found is None:
        raise DomainError(
            "satellite_other_venue",
            _("Choose one of this venue's tournaments for the seats."),
            rule="SER-1",
            status_code=404,
        )
    return found


def _no_shift():
    raise DomainError("shift_closed", _("Open your shift first."), rule="CAG-3", status_code=409)
