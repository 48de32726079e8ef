"""The room's result from the ledger: sums of entries of named accounts per gaming day.

Rolled-up gaming days come from the ledger's own day totals (cashier.models.AccountDayTotal:
every rolled-up day is a day the ledger has closed); the days not rolled up yet (normally only
today) are summed from the entries with the same bounds and the same function. Either way a
figure is the sum of the entries of the accounts it names, so a test recomputes it from raw
entries to the cent.

The prize figures are the exception: a prize pool's movements mix contributions, prizes,
refunds and the overlay, which only the transaction behind each posting tells apart. They come
from the tournaments' figures (tournaments.tournament_totals_by_day), the ones the tournament
table of every report shows, so a report never shows two prize figures that disagree.
"""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Sum

from cardroom.selectors import gaming_day_bounds
from cashier.models import Account, AccountDayTotal, AccountKind
from cashier.selectors import account_day_rows
from reports.selectors.common import live_days
from reports.selectors.tournaments import TournamentLine

# The accounts whose movements make the room's result.
REPORT_KINDS = [
    AccountKind.RAKE_REVENUE,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.JACKPOT_FUND,
    AccountKind.OVERLAY_EXPENSE,
    AccountKind.CASH_VARIANCE,
]


@dataclass
class Flow:
    """Debits and credits of one account kind in one period (cents, positive sums)."""

    debit: int = 0
    credit: int = 0

    def add(self, debit: int, credit: int) -> None:
        self.debit += debit
        self.credit += credit


def _kinds_of(account_ids: set[int]) -> dict[int, str]:
    return dict(Account.objects.filter(pk__in=account_ids).values_list("pk", "kind")) if account_ids else {}


def kind_flows_by_day(
    *, start: date, end: date, kinds=REPORT_KINDS, now: datetime | None = None
) -> dict[date, dict[str, Flow]]:
    """{gaming day: {account kind: Flow}} for the days start..end inclusive."""
    flows: dict[date, dict[str, Flow]] = defaultdict(lambda: defaultdict(Flow))
    live = live_days(start=start, end=end, now=now)
    for row in (
        AccountDayTotal.objects.filter(day__gte=start, day__lte=end, account__kind__in=kinds)
        .exclude(day__in=live)
        .values("day", "account__kind")
        .annotate(debit=Sum("debit_cents"), credit=Sum("credit_cents"))
        .order_by()
    ):
        flows[row["day"]][row["account__kind"]].add(row["debit"], row["credit"])
    for day in live:
        begin, finish = gaming_day_bounds(day)
        rows = account_day_rows(start=begin, end=finish)
        kind_of = _kinds_of({row["account_id"] for row in rows})
        for row in rows:
            if kind_of[row["account_id"]] in kinds:
                flows[day][kind_of[row["account_id"]]].add(row["debit"], row["credit"])
    return flows


def kind_balance_before(*, kind: str, day: date, now: datetime | None = None) -> int:
    """What the accounts of a kind held when a gaming day began (credit-normal kinds as
    positive): the totals of every earlier rolled-up day, plus any earlier day not rolled up yet
    (which the ledger may have closed already: its totals are left out, not counted twice)."""
    live = live_days(start=date.min, end=day - timedelta(days=1), now=now)
    rolled = (
        AccountDayTotal.objects.filter(day__lt=day, account__kind=kind)
        .exclude(day__in=live)
        .aggregate(debit=Sum("debit_cents"), credit=Sum("credit_cents"))
    )
    balance = (rolled["credit"] or 0) - (rolled["debit"] or 0)
    for earlier in live:
        flow = kind_flows_by_day(start=earlier, end=earlier, kinds=[kind], now=now)[earlier][kind]
        balance += flow.credit - flow.debit
    return balance


@dataclass
class PeriodFigures:
    label: str
    start: date
    end: date
    rake: int = 0
    fees: int = 0
    overlay: int = 0
    jackpot_drops: int = 0
    jackpot_payouts: int = 0
    cash_variance: int = 0  # over (+) or short (-)
    # From the tournaments' figures (TRN-2, TRN-10): the players' prize contributions less what
    # was given back, prizes paid (prize payouts only), and entries' money owed or paid back.
    prize_contributions: int = 0
    prizes_paid: int = 0
    refunds: int = 0

    @property
    def house_result(self) -> int:
        """Rake and fees less the guarantee overlay, with cash over (+) or short (-), in cents."""
        return self.rake + self.fees - self.overlay + self.cash_variance


def figures_for(
    label: str,
    start: date,
    end: date,
    days: dict[date, dict[str, Flow]],
    tournaments: Mapping[date, TournamentLine],
) -> PeriodFigures:
    """The figures of start..end from the ledger flows per day and the tournaments' per day."""
    figures = PeriodFigures(label=label, start=start, end=end)
    for day, line in tournaments.items():
        if start <= day <= end:
            figures.prize_contributions += line.contributions_cents
            figures.prizes_paid += line.prizes_paid_cents
            figures.refunds += line.refunds_cents
    for day, kinds in days.items():
        if not start <= day <= end:
            continue
        rake = kinds.get(AccountKind.RAKE_REVENUE, Flow())
        fees = kinds.get(AccountKind.TOURNAMENT_FEES, Flow())
        jackpot = kinds.get(AccountKind.JACKPOT_FUND, Flow())
        overlay = kinds.get(AccountKind.OVERLAY_EXPENSE, Flow())
        variance = kinds.get(AccountKind.CASH_VARIANCE, Flow())
        figures.rake += rake.credit - rake.debit
        figures.fees += fees.credit - fees.debit
        figures.overlay += overlay.debit - overlay.credit
        figures.jackpot_drops += jackpot.credit
        figures.jackpot_payouts += jackpot.debit
        figures.cash_variance += variance.credit - variance.debit
    return figures


def periods_of(start: date, end: date, group: str) -> list[tuple[str, date, date]]:
    """(label, first day, last day) per day, ISO week or calendar month, cut to the range."""
    periods = []
    day = start
    while day <= end:
        if group == "month":
            last = (day.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
            label = day.strftime("%Y-%m")
        elif group == "week":
            last = day + timedelta(days=6 - day.weekday())
            year, week, _weekday = day.isocalendar()
            label = f"{year}-W{week:02d}"
        else:
            last, label = day, day.isoformat()
        last = min(last, end)
        periods.append((label, day, last))
        day = last + timedelta(days=1)
    return periods
