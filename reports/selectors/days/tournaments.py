"""A tournament's gaming day from the raw records: the ledger's postings that name it, sorted by
the cashier transaction behind each (TRN-2, TRN-5, TRN-6, TRN-10)."""

from collections import defaultdict
from datetime import date

from cardroom.selectors import gaming_day_bounds
from cashier.models import AccountKind, CashierTransaction, Entry, Posting, TransactionKind
from reports.models import TournamentDayTotal
from tournaments.models import Tournament

TOURNAMENT_ACCOUNT_KINDS = [
    AccountKind.PRIZE_POOL,
    AccountKind.BOUNTY_POOL,
    AccountKind.REFUNDS_PAYABLE,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.OVERLAY_EXPENSE,
]
# Accounts owned by one tournament ("tournament:<id>"): a posting on one of them is its money.
TOURNAMENT_OWNED = {AccountKind.PRIZE_POOL, AccountKind.BOUNTY_POOL, AccountKind.REFUNDS_PAYABLE}
COUNTED_KINDS = {
    TransactionKind.TOURNAMENT_BUY_IN: "buy_ins",
    TransactionKind.RE_ENTRY: "re_entries",
    TransactionKind.REBUY: "rebuys",
    TransactionKind.ADD_ON: "add_ons",
}


def tournament_of(owner_or_reference: str) -> int | None:
    prefix, _sep, number = (owner_or_reference or "").partition(":")
    return int(number) if prefix == "tournament" and number.isdigit() else None


def tournament_day_rows(*, day: date) -> list[TournamentDayTotal]:
    """Per tournament: the day's entries sold and its money, from the ledger's postings that name
    the tournament. A posting belongs to a tournament when it moves one of the tournament's own
    accounts (prize pool, bounty pool, refunds payable), or when its cashier transaction (or the
    one it reverses) is for that tournament; fee revenue and the overlay expense are shared
    accounts, so their entries count for the tournament of their posting."""
    start, end = gaming_day_bounds(day)
    entries = list(
        Entry.objects.filter(
            created_at__gte=start, created_at__lt=end, account__kind__in=TOURNAMENT_ACCOUNT_KINDS
        ).values_list("posting_id", "account__kind", "account__owner", "amount_cents")
    )
    if not entries:
        return []
    # posting -> (transaction kind, +1 or -1 for a reversal), and the tournament it names.
    kind_of: dict[int, tuple[str, int]] = {}
    tournament: dict[int, int] = {}
    for posting_id, kind, reference in CashierTransaction.objects.filter(
        created_at__gte=start, created_at__lt=end, reference__startswith="tournament:"
    ).values_list("posting_id", "kind", "reference"):
        kind_of[posting_id] = (kind, 1)
        if tournament_of(reference) is not None:
            tournament[posting_id] = tournament_of(reference)
    for posting_id, kind, reference in Posting.objects.filter(
        created_at__gte=start,
        created_at__lt=end,
        reverses__cashier_transaction__reference__startswith="tournament:",
    ).values_list("pk", "reverses__cashier_transaction__kind", "reverses__cashier_transaction__reference"):
        kind_of[posting_id] = (kind, -1)
        if tournament_of(reference) is not None:
            tournament.setdefault(posting_id, tournament_of(reference))
    for posting_id, kind, owner, _amount in entries:
        if kind in TOURNAMENT_OWNED and tournament_of(owner) is not None:
            tournament.setdefault(posting_id, tournament_of(owner))
    # Only tournaments that exist (a hand-made posting may name any number).
    existing = set(Tournament.objects.filter(pk__in=set(tournament.values())).values_list("pk", flat=True))
    tournament = {posting: t for posting, t in tournament.items() if t in existing}
    rows: dict[int, TournamentDayTotal] = {}
    payable_credit: dict[int, int] = defaultdict(int)
    pool_outside_payouts: dict[int, int] = defaultdict(int)
    refund_postings: set[int] = set()
    for posting_id, kind, _owner, amount in entries:
        tournament_id = tournament.get(posting_id)
        if tournament_id is None:
            continue  # fee or overlay of no tournament (a manual posting): only in the totals
        line = rows.get(tournament_id)
        if line is None:
            line = rows[tournament_id] = TournamentDayTotal(day=day, tournament_id=tournament_id)
        transaction_kind, sign = kind_of.get(posting_id, ("", 1))
        if kind == AccountKind.TOURNAMENT_FEES:
            line.fees_cents -= amount
        elif kind == AccountKind.OVERLAY_EXPENSE:
            line.overlay_cents += amount
        elif kind == AccountKind.BOUNTY_POOL:
            if transaction_kind == TransactionKind.BOUNTY_PAYOUT:
                line.bounties_paid_cents += amount
            else:
                line.bounties_cents -= amount
        elif kind == AccountKind.REFUNDS_PAYABLE:
            if amount < 0:  # a cancellation owing the entries' money back (TRN-2)
                payable_credit[tournament_id] -= amount
        elif kind == AccountKind.PRIZE_POOL:
            if transaction_kind == TransactionKind.PRIZE_PAYOUT:
                line.prizes_paid_cents += amount
            else:
                pool_outside_payouts[tournament_id] -= amount
        if transaction_kind == TransactionKind.REFUND and kind != AccountKind.REFUNDS_PAYABLE:
            refund_postings.add(posting_id)
    for posting_id, (transaction_kind, sign) in kind_of.items():
        field = COUNTED_KINDS.get(transaction_kind)
        tournament_id = tournament.get(posting_id)
        if field and tournament_id in rows:
            setattr(rows[tournament_id], field, getattr(rows[tournament_id], field) + sign)
    # A refund straight from the pool (a cancelled entry refunded at the desk) gives back what the
    # entry paid: its prize, fee and bounty lines.
    direct_refunds: dict[int, int] = defaultdict(int)
    for posting_id, kind, _owner, amount in entries:
        if posting_id in refund_postings and kind != AccountKind.OVERLAY_EXPENSE:
            direct_refunds[tournament[posting_id]] += amount
    for tournament_id, line in rows.items():
        # The overlay's posting credits the pool with the overlay: that part is not the players'.
        line.contributions_cents = pool_outside_payouts[tournament_id] - line.overlay_cents
        line.refunds_cents = payable_credit[tournament_id] + direct_refunds[tournament_id]
    return [rows[key] for key in sorted(rows)]
