"""Tickets issued (SER-1): a satellite's seat paid as a ticket at the cage, and a manager's grant
(a promotion), and a comp bought with loyalty points (LOY-1)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind, Posting
from cashier.services import account_for, ledger_post
from players.models import Player
from tournaments.models import Ticket, TicketSource, Tournament
from tournaments.services._common import lock_tournament
from tournaments.services.tickets._common import refuse
from tournaments.services.tickets.satellites import target_refusal


def satellite_ticket_issue(*, actor, entry, record, now: datetime) -> Ticket:
    """A satellite's seat paid as a ticket (the cage's prize payment): the caller holds the
    satellite's and the entry's locks and posted `record` (prize pool -> tickets outstanding)."""
    satellite = entry.tournament
    ticket = Ticket.objects.create(
        venue_id=satellite.venue_id,
        tournament_id=satellite.satellite_target_id,
        player=entry.player,
        value_cents=record.amount_cents,
        source=TicketSource.SATELLITE,
        satellite_entry=entry,
        satellite_place=entry.finish_place,
        issued_at=now,
        issued_by=actor,
    )
    audit_record(
        actor=actor,
        action="ticket.issue",
        obj=ticket,
        after={
            "satellite": satellite.pk,
            "place": entry.finish_place,
            "tournament": ticket.tournament_id,
            "player": ticket.player_id,
            "value_cents": ticket.value_cents,
            "receipt": record.receipt_number,
        },
        now=now,
    )
    return ticket


@transaction.atomic
def ticket_grant(
    *,
    actor,
    tournament: Tournament,
    player: Player,
    reason: str,
    expires_at: datetime | None = None,
    now: datetime | None = None,
) -> Ticket:
    """A manager gives a player a ticket (a promotion): worth the tournament's buy-in, booked as
    promotion expense against tickets outstanding; audited with the reason."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise refuse("reason_required", _("Say why the ticket is given (the promotion)."))
    locked = lock_tournament(tournament.pk)
    refusal = target_refusal(locked)
    if refusal:
        raise refuse("ticket_target_closed", refusal, 409)
    if expires_at is not None and expires_at <= now:
        raise refuse("ticket_expires_in_past", _("The expiry must be in the future."))
    value = locked.buy_in_cents
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.PROMOTION_EXPENSE), value),
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), -value),
        ],
        description=f"Ticket granted for tournament {locked.pk}",
        actor=actor,
        now=now,
    )
    ticket = Ticket.objects.create(
        tournament=locked,
        player=player,
        value_cents=value,
        source=TicketSource.GRANT,
        reason=reason[:200],
        issued_at=now,
        issued_by=actor,
        expires_at=expires_at,
    )
    audit_record(
        actor=actor,
        action="ticket.grant",
        obj=ticket,
        after={
            "tournament": locked.pk,
            "player": player.pk,
            "value_cents": value,
            "expires_at": expires_at.isoformat() if expires_at else None,
        },
        note=reason,
        now=now,
    )
    return ticket


def loyalty_ticket_issue(
    *, actor, tournament: Tournament, player: Player, liability_cents: int, now: datetime
) -> tuple[Ticket, Posting]:
    """A ticket bought with loyalty points (LOY-1), inside the caller's transaction (the loyalty
    service holds the player's points and has taken the lots worth `liability_cents`). Worth the
    tournament's buy-in: Dr loyalty points outstanding by the lots' worth, Cr tickets
    outstanding by the buy-in; a difference (the point's value changed since the lots were
    earned) is loyalty expense. Refused, with nothing written, when the tournament takes no seat.
    Returns the ticket and its posting."""
    require_role(actor, *PLAYER_DESK_ROLES)
    locked = lock_tournament(tournament.pk)
    refusal = target_refusal(locked)
    if refusal:
        raise refuse("ticket_target_closed", refusal, 409)
    value = locked.buy_in_cents
    posting = ledger_post(
        lines=[
            (account_for(kind=AccountKind.LOYALTY_LIABILITY), liability_cents),
            (account_for(kind=AccountKind.LOYALTY_EXPENSE), value - liability_cents),
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), -value),
        ],
        description=f"Ticket for tournament {locked.pk} bought with loyalty points",
        actor=actor,
        now=now,
    )
    ticket = Ticket.objects.create(
        tournament=locked,
        player=player,
        value_cents=value,
        source=TicketSource.LOYALTY,
        reason="Loyalty points",
        issued_at=now,
        issued_by=actor,
    )
    audit_record(
        actor=actor,
        action="ticket.loyalty",
        obj=ticket,
        after={"tournament": locked.pk, "player": player.pk, "value_cents": value},
        now=now,
    )
    return ticket, posting
