"""Read-only figures for managers, every one recomputable from the ledger.

Ended gaming days come from the daily rollups; days not rolled up yet (normally only today) are
summed from the ledger's entries, grouped by gaming day in SQL. Either way a figure is the sum of
entries of the accounts it names, so a test can recompute it from raw entries to the cent.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Case, Count, IntegerField, Q, Sum, Value, When

from cardroom.selectors import gaming_day_bounds, gaming_day_expression, venue_get
from cashier.models import (
    PAY_IN_KINDS,
    PAY_OUT_KINDS,
    AccountKind,
    CashierTransaction,
    Entry,
    PaymentMethod,
    Shift,
    TransactionKind,
)
from reports.models import AccountDayTotal, RolledUpDay

# The accounts whose movements make the room's result, as (debit, credit) sums per gaming day.
REPORT_KINDS = [
    AccountKind.RAKE_REVENUE,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.JACKPOT_FUND,
    AccountKind.OVERLAY_EXPENSE,
    AccountKind.CASH_VARIANCE,
    AccountKind.PRIZE_POOL,
]


@dataclass
class Flow:
    """Debits and credits of one account kind in one period (cents, positive sums)."""

    debit: int = 0
    credit: int = 0

    def add(self, debit: int, credit: int) -> None:
        self.debit += debit
        self.credit += credit


def _signed_sums():
    return {
        "debit": Sum(
            Case(When(amount_cents__gt=0, then="amount_cents"), default=Value(0), output_field=IntegerField())
        ),
        "credit": Sum(
            Case(When(amount_cents__lt=0, then="amount_cents"), default=Value(0), output_field=IntegerField())
        ),
    }


def kind_flows_by_day(*, start: date, end: date, kinds=REPORT_KINDS) -> dict[date, dict[str, Flow]]:
    """{gaming day: {account kind: Flow}} for the days start..end inclusive."""
    flows: dict[date, dict[str, Flow]] = defaultdict(lambda: defaultdict(Flow))
    rolled = set(RolledUpDay.objects.filter(day__gte=start, day__lte=end).values_list("day", flat=True))
    for row in (
        AccountDayTotal.objects.filter(day__gte=start, day__lte=end, day__in=rolled, account__kind__in=kinds)
        .values("day", "account__kind")
        .annotate(debit=Sum("debit_cents"), credit=Sum("credit_cents"))
    ):
        flows[row["day"]][row["account__kind"]].add(row["debit"], row["credit"])
    live = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    live = [day for day in live if day not in rolled]
    if live:
        venue = venue_get()
        begin, _ = gaming_day_bounds(min(live), venue=venue)
        _, finish = gaming_day_bounds(max(live), venue=venue)
        for row in (
            Entry.objects.filter(created_at__gte=begin, created_at__lt=finish, account__kind__in=kinds)
            .annotate(day=gaming_day_expression("created_at", venue=venue))
            .filter(day__in=live)
            .values("day", "account__kind")
            .annotate(**_signed_sums())
        ):
            flows[row["day"]][row["account__kind"]].add(row["debit"], -row["credit"])
    return flows


def kind_balance_before(*, kind: str, day: date) -> int:
    """What accounts of a kind held when a gaming day began (credit-normal kinds as positive)."""
    start, _ = gaming_day_bounds(day)
    total = Entry.objects.filter(account__kind=kind, created_at__lt=start).aggregate(t=Sum("amount_cents"))[
        "t"
    ]
    return -(total or 0)


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
    prize_contributions: int = 0
    prizes_paid: int = 0

    @property
    def house_result(self) -> int:
        """Rake and fees less the guarantee overlay and cash shortages (cents)."""
        return self.rake + self.fees - self.overlay + self.cash_variance


def _figures(label: str, start: date, end: date, days: dict[date, dict[str, Flow]]) -> PeriodFigures:
    figures = PeriodFigures(label=label, start=start, end=end)
    for day, kinds in days.items():
        if not start <= day <= end:
            continue
        rake, fees = (
            kinds.get(AccountKind.RAKE_REVENUE, Flow()),
            kinds.get(AccountKind.TOURNAMENT_FEES, Flow()),
        )
        jackpot, overlay = (
            kinds.get(AccountKind.JACKPOT_FUND, Flow()),
            kinds.get(AccountKind.OVERLAY_EXPENSE, Flow()),
        )
        variance, pools = (
            kinds.get(AccountKind.CASH_VARIANCE, Flow()),
            kinds.get(AccountKind.PRIZE_POOL, Flow()),
        )
        figures.rake += rake.credit - rake.debit
        figures.fees += fees.credit - fees.debit
        figures.overlay += overlay.debit - overlay.credit
        figures.jackpot_drops += jackpot.credit
        figures.jackpot_payouts += jackpot.debit
        figures.cash_variance += variance.credit - variance.debit
        figures.prize_contributions += pools.credit
        figures.prizes_paid += pools.debit
    return figures


def _periods(start: date, end: date, group: str) -> list[tuple[str, date, date]]:
    periods = []
    day = start
    while day <= end:
        if group == "month":
            last = (day.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
            label = day.strftime("%Y-%m")
        elif group == "week":
            last = day + timedelta(days=6 - day.weekday())
            label = f"{day.isocalendar()[0]}-W{day.isocalendar()[1]:02d}"
        else:
            last, label = day, day.isoformat()
        last = min(last, end)
        periods.append((label, day, last))
        day = last + timedelta(days=1)
    return periods


@dataclass
class RangeReport:
    start: date
    end: date
    group: str
    periods: list[PeriodFigures]
    total: PeriodFigures
    previous: PeriodFigures
    jackpot_closing: list[tuple[date, int]] = field(default_factory=list)


def range_report(*, start: date, end: date, group: str = "day") -> RangeReport:
    """Figures per day, week or month, with the whole range and the same-length period before."""
    length = (end - start).days + 1
    previous_start, previous_end = start - timedelta(days=length), start - timedelta(days=1)
    days = kind_flows_by_day(start=previous_start, end=end)
    opening = kind_balance_before(kind=AccountKind.JACKPOT_FUND, day=start)
    closing, balance = [], opening
    for n in range(length):
        day = start + timedelta(days=n)
        flow = days.get(day, {}).get(AccountKind.JACKPOT_FUND, Flow())
        balance += flow.credit - flow.debit
        closing.append((day, balance))
    return RangeReport(
        start=start,
        end=end,
        group=group,
        periods=[_figures(label, a, b, days) for label, a, b in _periods(start, end, group)],
        total=_figures("total", start, end, days),
        previous=_figures("previous", previous_start, previous_end, days),
        jackpot_closing=closing,
    )


@dataclass
class ShiftLine:
    shift: Shift
    transactions: int
    cash_in: int
    cash_out: int


def shifts_of_day(*, day: date) -> list[ShiftLine]:
    """Cashier shifts opened in a gaming day, with their counts and movements."""
    start, end = gaming_day_bounds(day)
    shifts = (
        Shift.objects.filter(opened_at__gte=start, opened_at__lt=end)
        .select_related("cashier")
        .annotate(
            n=Count("transactions"),
            paid_in=Sum(
                "transactions__amount_cents",
                filter=Q(transactions__kind__in=PAY_IN_KINDS, transactions__method=PaymentMethod.CASH),
            ),
            paid_out=Sum("transactions__amount_cents", filter=Q(transactions__kind__in=PAY_OUT_KINDS)),
        )
        .order_by("opened_at")
    )
    return [
        ShiftLine(shift=s, transactions=s.n, cash_in=s.paid_in or 0, cash_out=s.paid_out or 0) for s in shifts
    ]


@dataclass
class DailyReport:
    day: date
    figures: PeriodFigures
    jackpot_opening: int
    jackpot_closing: int
    shifts: list[ShiftLine]
    prize_pools: list[dict]
    aml: list[dict]


def daily_report(*, day: date) -> DailyReport:
    days = kind_flows_by_day(start=day, end=day)
    figures = _figures(day.isoformat(), day, day, days)
    opening = kind_balance_before(kind=AccountKind.JACKPOT_FUND, day=day)
    start, end = gaming_day_bounds(day)
    pools = (
        Entry.objects.filter(account__kind=AccountKind.PRIZE_POOL, created_at__gte=start, created_at__lt=end)
        .values("account__owner")
        .annotate(**_signed_sums())
        .order_by("account__owner")
    )
    return DailyReport(
        day=day,
        figures=figures,
        jackpot_opening=opening,
        jackpot_closing=opening + figures.jackpot_drops - figures.jackpot_payouts,
        shifts=shifts_of_day(day=day),
        prize_pools=[
            {"tournament": row["account__owner"], "collected": -row["credit"], "paid": row["debit"]}
            for row in pools
        ],
        aml=aml_list(start=day, end=day),
    )


def aml_list(*, start: date, end: date) -> list[dict]:
    """PLY-2: players whose cash buy-ins and payouts reached the threshold in a gaming day."""
    venue = venue_get()
    begin, _ = gaming_day_bounds(start, venue=venue)
    _, finish = gaming_day_bounds(end, venue=venue)
    rows = (
        CashierTransaction.objects.filter(
            created_at__gte=begin, created_at__lt=finish, method=PaymentMethod.CASH, player__isnull=False
        )
        .annotate(day=gaming_day_expression("created_at", venue=venue))
        .values(
            "day",
            "player_id",
            "player__first_name",
            "player__last_name",
            "player__card_number",
            "player__id_verified_at",
        )
        .annotate(total=Sum("amount_cents"), count=Count("id"))
        .filter(total__gte=venue.aml_threshold_cents)
        .order_by("day", "player__last_name")
    )
    return [
        {
            "day": row["day"],
            "player_id": row["player_id"],
            "name": f"{row['player__first_name']} {row['player__last_name']}",
            "card_number": row["player__card_number"],
            "total": row["total"],
            "transactions": row["count"],
            "id_verified": row["player__id_verified_at"] is not None,
        }
        for row in rows
    ]


def player_activity(*, start: date, end: date, query: str = "", limit: int = 200) -> list[dict]:
    """Per player in the range: buy-ins, cash-outs and net from the cage, tournaments entered."""
    begin, _ = gaming_day_bounds(start)
    _, finish = gaming_day_bounds(end)
    chips_in = [TransactionKind.CASH_BUY_IN, TransactionKind.TOP_UP]
    entries = [TransactionKind.TOURNAMENT_BUY_IN, TransactionKind.RE_ENTRY]
    rows = CashierTransaction.objects.filter(
        created_at__gte=begin, created_at__lt=finish, player__isnull=False
    )
    if query:
        rows = rows.filter(Q(player__card_number=query) | Q(player__last_name_key__startswith=query.lower()))
    rows = (
        rows.values("player_id", "player__first_name", "player__last_name", "player__card_number")
        .annotate(
            buy_ins=Sum("amount_cents", filter=Q(kind__in=chips_in)),
            cash_outs=Sum("amount_cents", filter=Q(kind=TransactionKind.CASH_OUT)),
            tournaments=Count("id", filter=Q(kind__in=entries)),
            tournament_spend=Sum("amount_cents", filter=Q(kind__in=PAY_IN_KINDS) & ~Q(kind__in=chips_in)),
            won=Sum(
                "amount_cents",
                filter=Q(kind__in=[TransactionKind.PRIZE_PAYOUT, TransactionKind.JACKPOT_PAYOUT]),
            ),
        )
        .order_by("player__last_name", "player_id")[:limit]
    )
    result = []
    for row in rows:
        buy_ins, cash_outs = row["buy_ins"] or 0, row["cash_outs"] or 0
        result.append(
            {
                "player_id": row["player_id"],
                "name": f"{row['player__first_name']} {row['player__last_name']}",
                "card_number": row["player__card_number"],
                "buy_ins": buy_ins,
                "cash_outs": cash_outs,
                "cash_game_net": cash_outs - buy_ins,
                "tournaments": row["tournaments"],
                "tournament_spend": row["tournament_spend"] or 0,
                "won": row["won"] or 0,
            }
        )
    return result


def report_period_default(now: datetime) -> tuple[date, date]:
    from cardroom.selectors import gaming_day_of

    today = gaming_day_of(now)
    return today - timedelta(days=29), today
