"""Satellites and tickets (SER-1).

A satellite names a target tournament of the same venue; its payouts are seats (tickets) worth
the target's whole buy-in, prize pool // buy-in of them, and the remainder in cash to the next
place (poker.satellites). A ticket is a liability of the house, "tournament tickets
outstanding", from its issue until it is used, refunded or expires:

- won in a satellite, paid at the cage as the seat's prize: Dr the satellite's prize pool, Cr
  tickets outstanding (a receipt that says "ticket", no cash);
- granted by a manager (a promotion): Dr promotion expense, Cr tickets outstanding;
- used for an entry (entry_register with the ticket): Dr tickets outstanding, Cr the target's
  prize pool, fee revenue and bounty pool, split as a cash buy-in would be (TRN-6);
- refunded by a manager with a reason: Dr tickets outstanding, Cr refunds payable of the ticket,
  then paid in cash at the cage (ticket_refund_pay), as a cancelled tournament's refund is (TRN-2);
- expired: Dr tickets outstanding, Cr expired-tickets income for a satellite's ticket (the
  players' money was won and left unclaimed: the house keeps it, as with any unclaimed prize
  under the house's terms), or Cr promotion expense for a granted one (the promotion was never
  spent, so its cost is taken back rather than booked as income).

Every change of a ticket holds its row lock (`_common.lock_ticket`), taken after the
tournament's; the entry a ticket paid is unique, so a ticket pays one entry at most.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import format_eur
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind, Shift
from cashier.services import account_for, ledger_post, ticket_refund_payout
from players.models import Player
from tournaments.models import Ticket, TicketSource, TicketStatus, Tournament, TournamentStatus
from tournaments.services._common import lock_ticket, lock_tournament, rules_for

RULE = "SER-1"
CLOSED_STATUSES = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def target_refusal(target: Tournament) -> str:
    """Why a tournament can take no seat won or given now ("" when it can): it is over, or its
    (late) registration has closed."""
    if target.status in CLOSED_STATUSES:
        return _("%(target)s is %(status)s: it takes no new entries.") % {
            "target": target.name,
            "status": target.get_status_display(),
        }
    if rules_for(target).registration_closed_at is not None:
        return _("Registration for %(target)s has closed: it takes no new entries.") % {"target": target.name}
    if target.buy_in_cents <= 0:
        return _("%(target)s has no buy-in: a seat in it is worth nothing.") % {"target": target.name}
    return ""


@transaction.atomic
def tournament_satellite_set(
    *, actor, tournament: Tournament, target: Tournament | None, now: datetime | None = None
) -> Tournament:
    """Make a tournament a satellite of `target` (or an ordinary tournament again, None). Refused
    for itself, a tournament of another venue, a target that takes no entries, a loop of
    satellites, and once the satellite's payouts are final."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    locked = lock_tournament(tournament.pk)
    if rules_for(locked).payouts_finalised_at is not None:
        raise _refuse(
            "satellite_payouts_final", _("The payouts are final; the satellite can no longer change."), 409
        )
    if target is not None:
        if target.pk == locked.pk:
            raise _refuse(
                "satellite_of_itself",
                _("A satellite cannot award seats in itself: choose another tournament."),
            )
        target = Tournament.all_venues.filter(pk=target.pk).first()
        if target is None or target.venue_id != locked.venue_id:
            raise _refuse(
                "satellite_other_venue",
                _(
                    "A satellite awards seats in a tournament of its own venue: choose one of this "
                    "venue's tournaments."
                ),
            )
        refusal = target_refusal(target)
        if refusal:
            raise _refuse("satellite_target_closed", refusal, 409)
        seen, step = {locked.pk}, target
        while step is not None and step.satellite_target_id is not None:
            if step.satellite_target_id in seen:
                raise _refuse(
                    "satellite_loop",
                    _("%(target)s leads back to this tournament: satellites cannot go in a circle.")
                    % {"target": target.name},
                )
            seen.add(step.pk)
            step = Tournament.all_venues.filter(pk=step.satellite_target_id).first()
    before = {"satellite_target": locked.satellite_target_id}
    locked.satellite_target = target
    locked.save(update_fields=["satellite_target"])
    audit_record(
        actor=actor,
        action="tournament.satellite",
        obj=locked,
        before=before,
        after={"satellite_target": target.pk if target else None},
        now=now,
    )
    return locked


def ticket_require_usable(ticket: Ticket, *, tournament: Tournament, player: Player, now: datetime) -> None:
    """SER-1 at the desk: the ticket is for this tournament, held by this player, still valid.
    The caller holds the ticket's lock."""
    if ticket.tournament_id != tournament.pk:
        raise _refuse(
            "ticket_other_tournament",
            _(
                "Ticket %(n)d is for %(other)s, not %(this)s: register with cash or card, or use "
                "the right ticket."
            )
            % {"n": ticket.pk, "other": ticket.tournament.name, "this": tournament.name},
            409,
        )
    if ticket.player_id != player.pk:
        raise _refuse(
            "ticket_other_player",
            _("Ticket %(n)d belongs to %(holder)s, not %(player)s.")
            % {"n": ticket.pk, "holder": ticket.player.full_name, "player": player.full_name},
            409,
        )
    if ticket.status == TicketStatus.USED:
        raise _refuse(
            "ticket_used",
            _("Ticket %(n)d was already used for entry %(entry)d: a ticket pays one entry only.")
            % {"n": ticket.pk, "entry": ticket.used_by.number},
            409,
        )
    if ticket.status != TicketStatus.ISSUED:
        raise _refuse(
            "ticket_not_valid",
            _("Ticket %(n)d is %(status)s: it pays no entry. Register with cash or card.")
            % {"n": ticket.pk, "status": ticket.get_status_display()},
            409,
        )
    if ticket.expires_at is not None and now >= ticket.expires_at:
        raise _refuse(
            "ticket_expired",
            _("Ticket %(n)d expired: it pays no entry. Register with cash or card.") % {"n": ticket.pk},
            409,
        )
    if ticket.value_cents != tournament.buy_in_cents:
        raise _refuse(
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
        raise _refuse("unknown_ticket", _("Unknown ticket."), 404)
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
        raise _refuse("reason_required", _("Say why the ticket is given (the promotion)."))
    locked = lock_tournament(tournament.pk)
    refusal = target_refusal(locked)
    if refusal:
        raise _refuse("ticket_target_closed", refusal, 409)
    if expires_at is not None and expires_at <= now:
        raise _refuse("ticket_expires_in_past", _("The expiry must be in the future."))
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


def _require_issued(ticket: Ticket, message: str) -> None:
    """`message` takes %(n)d and %(status)s: a valid ticket only."""
    if ticket.status != TicketStatus.ISSUED:
        raise _refuse(
            "ticket_not_valid",
            message % {"n": ticket.pk, "status": ticket.get_status_display()},
            409,
        )


@transaction.atomic
def ticket_refund(*, actor, ticket: Ticket, reason: str, now: datetime | None = None) -> Ticket:
    """A manager refunds a valid ticket, with a reason: its worth moves from tickets outstanding
    to the ticket's refunds payable, which the cage pays the holder in cash (ticket_refund_pay)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise _refuse("reason_required", _("Say why the ticket is refunded."))
    lock_tournament(ticket.tournament_id)
    locked = lock_ticket(ticket.pk)
    _require_issued(locked, _("Ticket %(n)d is %(status)s: only a valid ticket can be refunded."))
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), locked.value_cents),
            (account_for(kind=AccountKind.REFUNDS_PAYABLE, owner=f"ticket:{locked.pk}"), -locked.value_cents),
        ],
        description=f"Ticket {locked.pk} refunded",
        actor=actor,
        now=now,
        reason=reason,
    )
    locked.status = TicketStatus.REFUNDED
    locked.refund_reason = reason[:200]
    locked.closed_at = now
    locked.closed_by = actor
    locked.save(update_fields=["status", "refund_reason", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.refund",
        obj=locked,
        before={"status": TicketStatus.ISSUED},
        after={"status": locked.status, "value_cents": locked.value_cents},
        note=reason,
        now=now,
    )
    return locked


def ticket_refund_pay(
    *, actor, ticket: Ticket, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Ticket:
    """The cashier pays a refunded ticket's worth to its holder in cash, once."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> Ticket:
        lock_tournament(ticket.tournament_id)
        locked = lock_ticket(ticket.pk)
        if locked.status != TicketStatus.REFUNDED or locked.refund_transaction_id is not None:
            raise _refuse("no_refund_due", _("Ticket %(n)d has no refund to pay.") % {"n": locked.pk}, 409)
        record = ticket_refund_payout(
            actor=actor,
            shift=shift,
            player=locked.player,
            ticket_id=locked.pk,
            amount_cents=locked.value_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.refund_transaction = record
        locked.save(update_fields=["refund_transaction"])
        audit_record(
            actor=actor,
            action="ticket.refund_paid",
            obj=locked,
            after={"receipt": record.receipt_number, "amount_cents": record.amount_cents},
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="tournaments.ticket_refund_pay",
        request={"shift": shift.pk, "ticket": ticket.pk},
        run=pay,
        load=lambda pk: Ticket.objects.get(pk=pk),
        now=now,
    )


@transaction.atomic
def ticket_expire(*, actor, ticket: Ticket, now: datetime | None = None) -> Ticket:
    """A valid ticket past its expiry leaves the liability (see the module's note for where its
    worth goes). `actor` None: the scheduled sweep."""
    if actor is not None:
        require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    lock_tournament(ticket.tournament_id)
    locked = lock_ticket(ticket.pk)
    _require_issued(locked, _("Ticket %(n)d is %(status)s: only a valid ticket expires."))
    if locked.expires_at is None or now < locked.expires_at:
        raise _refuse("ticket_not_due", _("Ticket %(n)d has not expired.") % {"n": locked.pk}, 409)
    to = AccountKind.PROMOTION_EXPENSE if locked.source == TicketSource.GRANT else AccountKind.TICKETS_EXPIRED
    ledger_post(
        lines=[
            (account_for(kind=AccountKind.TICKETS_OUTSTANDING), locked.value_cents),
            (account_for(kind=to), -locked.value_cents),
        ],
        description=f"Ticket {locked.pk} expired",
        actor=actor,
        now=now,
    )
    locked.status = TicketStatus.EXPIRED
    locked.closed_at = now
    locked.closed_by = actor
    locked.save(update_fields=["status", "closed_at", "closed_by"])
    audit_record(
        actor=actor,
        action="ticket.expire",
        obj=locked,
        before={"status": TicketStatus.ISSUED},
        after={"status": locked.status, "to": to},
        now=now,
    )
    return locked


def tickets_expire_due(*, actor=None, now: datetime | None = None) -> int:
    """Expire every valid ticket of the active venue past its expiry (a manager's tap, or a
    scheduled sweep with no actor); each in its own transaction, re-checked under its lock. The
    number expired."""
    if actor is not None:
        require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    due = list(
        Ticket.objects.filter(status=TicketStatus.ISSUED, expires_at__lte=now).values_list("pk", flat=True)
    )
    done = 0
    for pk in due:
        try:
            ticket_expire(actor=actor, ticket=Ticket.objects.get(pk=pk), now=now)
        except DomainError:
            continue  # used or refunded meanwhile
        done += 1
    return done
