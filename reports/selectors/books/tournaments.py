"""The tournament side of a venue's books: each tournament's prize and bounty pools and refunds
payable against its entries and payouts (SER-2: a flight's pool moved into its Day 2), the fees,
the entries against their receipts, and the tickets' liability (SER-1). venue_checks (checks.py)
runs them with the rest."""

from django.db.models import Exists, F, OuterRef, Q, Sum
from django.utils.translation import gettext_lazy as _

from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amounts
from reports.selectors.books._common import BookCheck, _sum, _sums, _tournament_owner
from reports.selectors.books.promotions import promotion_house_cents
from tournaments.models import (
    COUNTED_STATUSES,
    BountyAward,
    EntryKind,
    EntryPayment,
    EntryStatus,
    PoolTransfer,
    Ticket,
    TicketSource,
    TicketStatus,
    Tournament,
)
from tournaments.models import Entry as TournamentEntry


def tournament_checks(tournaments: list[Tournament], amounts: dict) -> list[BookCheck]:
    checks = []
    counted = EntryPayment.objects.filter(entry__status__in=COUNTED_STATUSES)
    moved_out: dict[int, int] = {}
    moved_in: dict[int, int] = {}
    for transfer in PoolTransfer.objects.all():
        moved_out[transfer.flight_id] = moved_out.get(transfer.flight_id, 0) + transfer.amount_cents
        moved_in[transfer.day_two_id] = moved_in.get(transfer.day_two_id, 0) + transfer.amount_cents
    for tournament in tournaments:
        owner = _tournament_owner(tournament)
        paid_in = _sums(
            counted.filter(entry__tournament=tournament),
            prizes=Sum("prize_cents"),
            bounties=Sum("bounty_cents"),
        )
        prizes_paid = _sum(
            CashierTransaction.objects.filter(tournament_prize__tournament=tournament), "amount_cents"
        )
        rules = getattr(tournament, "rules", None)
        overlay = rules.overlay_cents if rules is not None and tournament.status != "cancelled" else 0
        # A multi-day event's flights move their pools into the Day 2's when it is drawn (SER-2).
        moved = moved_in.get(tournament.pk, 0) - moved_out.get(tournament.pk, 0)
        checks.append(
            BookCheck(
                str(_("Tournament %(n)s: prize pool = entries' prize parts + overlay - prizes paid"))
                % {"n": tournament.pk},
                paid_in["prizes"] + overlay + moved - prizes_paid,
                amounts[(AccountKind.PRIZE_POOL, owner)],
            )
        )
        bounties_paid = _sum(BountyAward.objects.filter(tournament=tournament, transaction__isnull=False))
        checks.append(
            BookCheck(
                str(_("Tournament %(n)s: bounty pool = entries' bounties - bounties paid"))
                % {"n": tournament.pk},
                paid_in["bounties"] - bounties_paid,
                amounts[(AccountKind.BOUNTY_POOL, owner)],
            )
        )
        due = tournament.entries.filter(status=EntryStatus.REFUND_DUE)
        checks.append(
            BookCheck(
                str(_("Tournament %(n)s: refunds payable = refunds not yet collected"))
                % {"n": tournament.pk},
                _sum(due, "refund_cents"),
                amounts[(AccountKind.REFUNDS_PAYABLE, owner)],
            )
        )
    checks.append(
        BookCheck(
            str(_("Tournament fees = the fees of the entries in play")),
            _sum(counted, "fee_cents"),
            amounts[(AccountKind.TOURNAMENT_FEES, "")],
        )
    )
    wrong_payments = EntryPayment.objects.exclude(
        cashier_transaction__amount_cents=F("prize_cents") + F("fee_cents") + F("bounty_cents")
    ).count()
    checks.append(
        BookCheck(str(_("Entry payments whose receipt is for another amount")), 0, wrong_payments, "payments")
    )
    paid_for = EntryPayment.objects.filter(
        entry=OuterRef("pk"),
        kind__in=["buy_in", "re_entry"],
        cashier_transaction=OuterRef("cashier_transaction"),
    )
    # A Day 2 seat from a bag paid nothing (SER-2).
    unpaid = TournamentEntry.objects.filter(~Exists(paid_for)).exclude(kind=EntryKind.BAG).count()
    checks.append(BookCheck(str(_("Entries without the buy-in their receipt names")), 0, unpaid, "entries"))
    return checks


def ticket_checks(amounts: dict) -> list[BookCheck]:
    """SER-1: the tickets-outstanding liability is the worth of the valid tickets; each ticket's
    refunds payable holds its refund until the cage pays it; promotion expense is the worth of
    the granted tickets not expired; expired-tickets income the worth of satellites' expired
    tickets."""
    tickets = Ticket.objects.all()
    sums = _sums(
        tickets,
        outstanding=Sum("value_cents", filter=Q(status=TicketStatus.ISSUED)),
        granted=Sum("value_cents", filter=Q(source=TicketSource.GRANT) & ~Q(status=TicketStatus.EXPIRED)),
        expired=Sum("value_cents", filter=Q(source=TicketSource.SATELLITE, status=TicketStatus.EXPIRED)),
    )
    refunded = list(
        tickets.filter(status=TicketStatus.REFUNDED).values_list("pk", "value_cents", "refund_transaction")
    )
    payable = account_amounts(
        accounts=[(AccountKind.REFUNDS_PAYABLE, f"ticket:{pk}") for pk, _value, _paid in refunded]
    )
    return [
        BookCheck(
            str(_("Tickets outstanding = the worth of the valid tickets")),
            sums["outstanding"],
            amounts[(AccountKind.TICKETS_OUTSTANDING, "")],
        ),
        BookCheck(
            str(_("Refunds payable of tickets = refunded tickets not yet paid")),
            sum(value for _pk, value, paid in refunded if paid is None),
            sum(payable.values()),
        ),
        BookCheck(
            str(
                _("Promotion expense = tickets granted less expired ones, and high-hand prizes over the fund")
            ),
            sums["granted"] + promotion_house_cents(),
            amounts[(AccountKind.PROMOTION_EXPENSE, "")],
        ),
        BookCheck(
            str(_("Expired tickets income = the worth of satellites' expired tickets")),
            sums["expired"],
            amounts[(AccountKind.TICKETS_EXPIRED, "")],
        ),
    ]
