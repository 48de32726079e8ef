"""Satellites and tickets (SER-1).

A satellite names a target tournament of the same venue; its payouts are seats (tickets) worth
the target's whole buy-in, prize pool // buy-in of them, and the remainder in cash to the next
place (poker.satellites). A ticket is a liability of the house, "tournament tickets
outstanding", from its issue until it is used, refunded or expires:

- won in a satellite, paid at the cage as the seat's prize: Dr the satellite's prize pool, Cr
  tickets outstanding (a receipt that says "ticket", no cash);
- granted by a manager (a promotion): Dr promotion expense, Cr tickets outstanding;
- bought with loyalty points (LOY-1): Dr loyalty points outstanding, Cr tickets outstanding;
- used for an entry (entry_register with the ticket): Dr tickets outstanding, Cr the target's
  prize pool, fee revenue and bounty pool, split as a cash buy-in would be (TRN-6);
- refunded by a manager with a reason: Dr tickets outstanding, Cr refunds payable of the ticket,
  then paid in cash at the cage (ticket_refund_pay), as a cancelled tournament's refund is (TRN-2);
- expired: Dr tickets outstanding, Cr expired-tickets income for a satellite's ticket (the
  players' money was won and left unclaimed: the house keeps it, as with any unclaimed prize
  under the house's terms), or Cr promotion expense for a granted one (the promotion was never
  spent, so its cost is taken back rather than booked as income).

Every change of a ticket holds its row lock (`tournaments.services._common.lock_ticket`), taken
after the tournament's; the entry a ticket paid is unique, so a ticket pays one entry at most.

- satellites: a satellite's target, and whether a target takes a seat now
- issue: tickets won in a satellite and granted by a manager
- use: a ticket checked and used for an entry, and given back
- refunds: a ticket refunded, and the refund paid at the cage
- expiry: tickets past their expiry
"""

from tournaments.services.tickets._common import RULE
from tournaments.services.tickets.expiry import ticket_expire, tickets_expire_due
from tournaments.services.tickets.issue import loyalty_ticket_issue, satellite_ticket_issue, ticket_grant
from tournaments.services.tickets.refunds import refund_refusal, ticket_refund, ticket_refund_pay
from tournaments.services.tickets.satellites import CLOSED_STATUSES, target_refusal, tournament_satellite_set
from tournaments.services.tickets.use import (
    ticket_give_back,
    ticket_lock_for_use,
    ticket_mark_used,
    ticket_require_usable,
)

__all__ = [
    "CLOSED_STATUSES",
    "RULE",
    "loyalty_ticket_issue",
    "refund_refusal",
    "satellite_ticket_issue",
    "target_refusal",
    "ticket_expire",
    "ticket_give_back",
    "ticket_grant",
    "ticket_lock_for_use",
    "ticket_mark_used",
    "ticket_refund",
    "ticket_refund_pay",
    "ticket_require_usable",
    "tickets_expire_due",
    "tournament_satellite_set",
]
