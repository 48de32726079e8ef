"""Reads of the ledger: balances at any time, drawers, funds and pools (CAG-1, CAG-3)."""

from datetime import date, datetime

from django.db.models import Case, Count, IntegerField, Max, Min, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from cardroom.models import Venue
from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashier.models import (
    ROOM_ACCOUNT_KINDS,
    Account,
    AccountDayTotal,
    AccountKind,
    CashierTransaction,
    Entry,
    LedgerDay,
    PaymentMethod,
    Shift,
    ShiftStatus,
)

# Liabilities and revenue carry credit (negative) balances; shown positive to people.
CREDIT_NORMAL = {
    AccountKind.CHIPS_IN_PLAY,
    AccountKind.PRIZE_POOL,
    AccountKind.BOUNTY_POOL,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.RAKE_REVENUE,
    AccountKind.JACKPOT_FUND,
    AccountKind.PROMOTION_FUND,
    AccountKind.REFUNDS_PAYABLE,
    AccountKind.TICKETS_OUTSTANDING,
    AccountKind.TICKETS_EXPIRED,
    AccountKind.LOYALTY_LIABILITY,
    AccountKind.COMPS_PAYABLE,
}


def account_balance(*, account: Account, at: datetime | None = None) -> int:
    """Signed balance in cents (debit +) of the entries up to and including `at`.

    Gaming days the ledger has closed are read from their daily totals and only the rest from the
    entries, so the jackpot fund or a table's chips cost the same three queries after five years
    of hands as after one day. The sum is the same either way: a day's totals are the sum of its
    entries, and a day posted into after it closed is reopened (cashier.services.days).
    """
    return _balances(account_ids=[account.pk], at=at).get(account.pk, 0)


def _balances(*, account_ids: list[int], at: datetime | None) -> dict[int, int]:
    """Signed balances of several accounts (see `account_balance`), in two or three queries
    however many accounts are asked for."""
    rolled = _rolled_days_before(gaming_day_of(at or timezone.now()))
    entries = Entry.objects.filter(account_id__in=account_ids)
    if at is not None:
        entries = entries.filter(created_at__lte=at)
    balances = dict.fromkeys(account_ids, 0)
    if rolled is not None:
        first, last = rolled
        for row in (
            AccountDayTotal.objects.filter(account_id__in=account_ids, day__gte=first, day__lte=last)
            .values("account_id")
            .annotate(debit=Sum("debit_cents"), credit=Sum("credit_cents"))
            .order_by()
        ):
            balances[row["account_id"]] += (row["debit"] or 0) - (row["credit"] or 0)
        start, _ = gaming_day_bounds(first)
        _, end = gaming_day_bounds(last)
        entries = entries.filter(Q(created_at__lt=start) | Q(created_at__gte=end))
    for row in entries.values("account_id").annotate(total=Sum("amount_cents")).order_by():
        balances[row["account_id"]] += row["total"] or 0
    return balances


def _rolled_days_before(day: date) -> tuple[date, date] | None:
    """The first and last day of the oldest unbroken run of closed (rolled-up) gaming days before
    `day` (days are closed oldest first, so normally all of them), or None when there is none."""
    run = LedgerDay.objects.filter(day__lt=day).aggregate(first=Min("day"), last=Max("day"), days=Count("pk"))
    if not run["days"]:
        return None
    if (run["last"] - run["first"]).days + 1 == run["days"]:
        return run["first"], run["last"]
    # A day was reopened (a posting dated into it): stop before the first gap.
    last = run["first"]
    for rolled in (
        LedgerDay.objects.filter(day__gt=run["first"], day__lt=day)
        .order_by("day")
        .values_list("day", flat=True)
    ):
        if (rolled - last).days != 1:
            break
        last = rolled
    return run["first"], last


def _signed_sum(**condition) -> Sum:
    """The sum of the entries' amounts that meet `condition` (0 where none do)."""
    return Sum(Case(When(**condition, then="amount_cents"), default=Value(0), output_field=IntegerField()))


def account_day_rows(*, start: datetime, end: datetime) -> list[dict]:
    """Per account, the entries of [start, end): debits and credits (cents, both positive) and
    their number. What a closed day's totals hold, and what reports sum for a day not closed."""
    rows = (
        Entry.objects.filter(created_at__gte=start, created_at__lt=end)
        .values("account_id")
        .annotate(
            debit=_signed_sum(amount_cents__gt=0), credit=_signed_sum(amount_cents__lt=0), count=Count("id")
        )
        .order_by("account_id")
    )
    return [
        {
            "account_id": row["account_id"],
            "debit": row["debit"] or 0,
            "credit": -(row["credit"] or 0),
            "count": row["count"],
        }
        for row in rows
    ]


def account_held(*, account: Account) -> int:
    """What an account in hand holds now, as a person reads it (see `account_amount`), without
    looking the account up again."""
    balance = account_balance(account=account)
    return -balance if account.kind in CREDIT_NORMAL else balance


def account_amount(*, kind: str, owner: str = "", at: datetime | None = None) -> int:
    """What an account holds, as a person reads it (a prize pool of 1,000 EUR is +100000)."""
    return account_amounts(accounts=[(kind, owner)], at=at)[(kind, owner)]


def account_amounts(
    *, accounts: list[tuple[str, str]], at: datetime | None = None
) -> dict[tuple[str, str], int]:
    """What each (kind, owner) account holds, as a person reads it; 0 for an account never
    posted to. Three or four queries for any number of accounts (the books check reads them all)."""
    wanted = Q(pk__in=[])
    for kind, owner in accounts:
        wanted |= Q(kind=kind, owner=owner)
    found = {(account.kind, account.owner): account.pk for account in Account.objects.filter(wanted)}
    balances = _balances(account_ids=list(found.values()), at=at) if found else {}
    amounts = {}
    for kind, owner in accounts:
        balance = balances.get(found.get((kind, owner)), 0)
        amounts[(kind, owner)] = -balance if kind in CREDIT_NORMAL else balance
    return amounts


def drawer_expected(*, shift: Shift, at: datetime | None = None) -> int:
    """The cash the drawer should hold: opening float plus every cash movement of the shift."""
    return account_balance(account=shift.drawer, at=at)


def jackpot_fund_balance(*, at: datetime | None = None) -> int:
    return account_amount(kind=AccountKind.JACKPOT_FUND, at=at)


def prize_pool_balance(*, tournament_id: int, at: datetime | None = None) -> int:
    return account_amount(kind=AccountKind.PRIZE_POOL, owner=f"tournament:{tournament_id}", at=at)


def ledger_total() -> int:
    """The sum of every entry ever posted: zero in a balanced ledger."""
    return Entry.objects.aggregate(total=Sum("amount_cents"))["total"] or 0


def unbalanced_postings() -> QuerySet:
    """Postings whose entries do not sum to zero (always empty; checked by tests and reports)."""
    return Entry.objects.values("posting_id").annotate(total=Sum("amount_cents")).exclude(total=0)


def open_shift_for(*, cashier) -> Shift | None:
    return Shift.objects.filter(cashier=cashier, status=ShiftStatus.OPEN).select_related("drawer").first()


def shift_transactions(*, shift: Shift) -> QuerySet[CashierTransaction]:
    return shift.transactions.select_related("player", "posting").order_by("-created_at", "-pk")


def player_cash_total_for_day(*, player_id: int, day: date, venue: Venue | None = None) -> int:
    """PLY-2: the player's cash buy-ins and payouts in one gaming day, summed (cents), in every
    venue of the operator (VEN-1: the obligation is the operator's). The gaming day is `venue`'s
    (the active venue's unless named), the venue where the new transaction happens: from its
    start hour in its time zone to the next day's. Where the venues' days start at other hours,
    a movement in another venue counts by its moment inside that window, not by the other
    venue's own gaming day, so a sum can never slip past the threshold between two days."""
    start, end = gaming_day_bounds(day, venue=venue)
    return (
        CashierTransaction.all_venues.filter(
            Q(player_id=player_id, method=PaymentMethod.CASH, created_at__gte=start, created_at__lt=end)
        ).aggregate(total=Sum("amount_cents"))["total"]
        or 0
    )


def room_balances(*, at: datetime | None = None) -> dict:
    """Where the room's money is at `at` (now when None), for the manager (CAG-1): what each
    singleton account holds (cents, as a person reads it) and the cash each open shift's drawer
    should hold, by shift id. One read of the balances for all of them."""
    shifts = list(Shift.objects.filter(status=ShiftStatus.OPEN).order_by("pk"))
    amounts = account_amounts(accounts=[(kind, "") for kind in ROOM_ACCOUNT_KINDS], at=at)
    drawers = _balances(account_ids=[shift.drawer_id for shift in shifts], at=at) if shifts else {}
    return {
        "at": at,
        "accounts_cents": {str(kind): amount for (kind, _owner), amount in amounts.items()},
        "open_drawers_cents": {str(shift.pk): drawers[shift.drawer_id] for shift in shifts},
    }
