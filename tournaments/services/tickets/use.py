"""A ticket used at the desk for an entry (SER-1), and given back when that entry is withdrawn
before it played."""

from datetime import datetime

from django.utils.translation import gettext as _

from cardroom.money import format_eur
from cardroom.services import audit_record
from players.models import Player
from tournaments.models import Ticket, TicketStatus, Tournament
from tournaments.services._common import lock_ticket
from tournaments.services.tickets._common import refuse


def ticket_require_usable(ticket: Ticket, *, tournament: Tournament, player: Player, now: datetime) -> None:
    """SER-1 at the desk: the ticket is for this tournament, held by this player, still valid.
    The caller holds the ticket's lock."""
    if ticket.tournament_id != tournament.pk:
        raise refuse(
            "ticket_other_tournament",
            _(
                "Ticket %(n)d is for %(other)s, not %(this)s: register with cash or card, or use "
                "the right ticket."
            )
            % {"n": ticket.pk, "other": ticket.tournament.name, "this": tournament.name},
            409,
        )
    if ticket.player_id != player.pk:
        raise refuse(
            "ticket_other_player",
            _("Ticket %(n)d belongs to %(holder)s, not %(player)s.")
            % {"n": ticket.pk, "holder": ticket.player.full_name, "player": player.full_name},
            409,
        )
    if ticket.status == TicketStatus.USED:
        raise refuse(
            "ticket_used",
            _("Ticket %(n)d was already used for entry %(entry)d: a ticket pays one entry only.")
            % {"n": ticket.pk, "entry": ticket.used_by.number},
            409,
        )
    if ticket.status != TicketStatus.ISSUED:
        raise refuse(
            "ticket_not_valid",
            _("Ticket %(n)d is %(status)s: it pays no entry. Register with cash or card.")
            % {"n": ticket.pk, "status": ticket.get_status_display()},
            409,
        )
    if ticket.expires_at is not None and now >= ticket.expires_at:
        raise refuse(
            "ticket_expired",
            _("Ticket %(n)d expired: it pays no entry. Register with cash or card.") % {"n": ticket.pk},
            409,
        )
    if ticket.value_cents != tournament.buy_in_cents:
        raise refuse(
            "ticket_value_differs",
            _("Ticket %(n)d is worth %(value)s but the buy-in is %(buy_in)s: ask a manager.")
            % {
                "n": ticket.pk,
                "value": format_eur(ticket.value_cents),
                "buy_in": format_eur(tournament.buy_in_cents),
            },
            409,
        )


def ticket_lock_for_use(*, ticket_id: int, tournament: Tournament, player: Player, now: datetime) -> Ticket:
    """The ticket under its lock, checked usable (the caller holds the tournament's lock)."""
    ticket = Ticket.all_venues.filter(pk=ticket_id, venue_id=tournament.venue_id).first()
    if ticket is None:
        raise refuse("unknown_ticket", _("Unknown ticket."), 404)
    ticket = lock_ticket(ticket.pk)
    ticket_require_usable(ticket, tournament=tournament, player=player, now=now)
    return ticket


def ticket_mark_used(ticket: Ticket, *, entry, actor, now: datetime, receipt: int) -> None:
    """The ticket (locked, checked) paid `entry`. The entry is unique on the ticket."""
    ticket.status = TicketStatus.USED
    ticket.used_by = entry
    ticket.closed_at = now
    ticket.closed_by = actor
    ticket.save(update_fields=["status", "used_by", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.use",
        obj=ticket,
        before={"status": TicketStatus.ISSUED},
        after={"status": ticket.status, "entry": entry.pk, "receipt": receipt},
        now=now,
    )


def ticket_give_back(ticket: Ticket, *, actor, now: datetime, why: str) -> None:
    """The entry a ticket paid was withdrawn before it played: the ticket is valid again (the
    entry's money went back to the tickets-outstanding liability). Caller holds the lock."""
    ticket.status = TicketStatus.ISSUED
    ticket.used_by = None
    ticket.closed_at = None
    ticket.closed_by = None
    ticket.save(update_fields=["status", "used_by", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.given_back",
        obj=ticket,
        before={"status": TicketStatus.USED},
        after={"status": ticket.status},
        note=why,
        now=now,
    )
