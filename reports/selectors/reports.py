"""The manager's reports: one gaming day, and a range of days compared with the period of the
same length before. Each report is assembled from the ledger figures (ledger.py), the cash
tables (cash.py), the tournaments (tournaments.py) and the players (players.py)."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardroom.selectors import gaming_day_bounds, gaming_day_of
from cashgame.models import DropBoxCount, JackpotClaim
from cashier.models import PAY_IN_KINDS, PAY_OUT_KINDS, AccountKind, PaymentMethod, Shift
from reports.selectors.cash import CashReport, cash_report, drop_counts_of
from reports.selectors.common import range_bounds
from reports.selectors.ledger import (
    Flow,
    PeriodFigures,
    figures_for,
    kind_balance_before,
    kind_flows_by_day,
    periods_of,
)
from reports.selectors.players import AmlLine, aml_list
from reports.selectors.tickets import TicketReport, ticket_report
from reports.selectors.tournaments import TournamentReport, tournament_report, tournament_totals_by_day


@dataclass
class ShiftLine:
    shift: Shift
    transactions: int
    cash_in: int
    cash_out: int


def shifts_of_day(*, day: date) -> list[ShiftLine]:
    """Cashier shifts opened in a gaming day, with their counts and movements (CAG-3)."""
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
            # Cash only: a satellite's seat paid as a ticket moves no cash (SER-1).
            paid_out=Sum(
                "transactions__amount_cents",
                filter=Q(transactions__kind__in=PAY_OUT_KINDS)
                & ~Q(transactions__method=PaymentMethod.TICKET),
            ),
        )
        .order_by("opened_at")
    )
    return [
        ShiftLine(shift=s, transactions=s.n, cash_in=s.paid_in or 0, cash_out=s.paid_out or 0) for s in shifts
    ]


@dataclass
class JackpotDay:
    day: date
    opening: int
    drops: int
    payouts: int
    closing: int
    label: str = ""


def _jackpot_days(
    start: date, end: date, days: dict[date, dict[str, Flow]], opening: int
) -> list[JackpotDay]:
    lines, balance = [], opening
    for n in range((end - start).days + 1):
        day = start + timedelta(days=n)
        flow = days.get(day, {}).get(AccountKind.JACKPOT_FUND, Flow())
        lines.append(JackpotDay(day, balance, flow.credit, flow.debit, balance + flow.credit - flow.debit))
        balance += flow.credit - flow.debit
    return lines


def jackpot_claims_of(*, start: date, end: date) -> list[JackpotClaim]:
    """Bad-beat jackpots won (JKP-3) in the gaming days start..end, with their shares."""
    begin, finish = range_bounds(start, end)
    return list(
        JackpotClaim.objects.filter(created_at__gte=begin, created_at__lt=finish)
        .select_related("hand__table")
        .annotate(
            share_count=Count("shares"),
            paid_cents=Sum("shares__amount_cents", filter=Q(shares__paid_at__isnull=False)),
        )
        .order_by("created_at")
    )


@dataclass
class Unattributed:
    """Money on the shared accounts that no hand or tournament posting explains (manual
    postings): shown so the detail tables still add up to the totals. Normally all zero."""

    rake: int = 0
    jackpot: int = 0
    fees: int = 0
    overlay: int = 0

    @property
    def any(self) -> bool:
        return bool(self.rake or self.jackpot or self.fees or self.overlay)


def _unattributed(figures: PeriodFigures, cash: CashReport, tournaments: TournamentReport) -> Unattributed:
    return Unattributed(
        rake=figures.rake - cash.total.rake_cents,
        jackpot=figures.jackpot_drops - cash.total.jackpot_cents,
        fees=figures.fees - tournaments.total.fees_cents,
        overlay=figures.overlay - tournaments.total.overlay_cents,
    )


@dataclass
class DailyReport:
    day: date
    figures: PeriodFigures
    jackpot_opening: int
    jackpot_closing: int
    cash: CashReport
    drop_counts: list[DropBoxCount]
    tournaments: TournamentReport
    shifts: list[ShiftLine]
    jackpot_claims: list[JackpotClaim]
    aml: list[AmlLine]
    unattributed: Unattributed
    tickets: TicketReport = field(default_factory=TicketReport)


def daily_report(*, day: date, now: datetime | None = None) -> DailyReport:
    """Everything a manager reads about one gaming day (the venue's day boundary)."""
    now = now or timezone.now()
    days = kind_flows_by_day(start=day, end=day, now=now)
    figures = figures_for(
        day.isoformat(), day, day, days, tournament_totals_by_day(start=day, end=day, now=now)
    )
    opening = kind_balance_before(kind=AccountKind.JACKPOT_FUND, day=day, now=now)
    cash = cash_report(start=day, end=day, now=now)
    tournaments = tournament_report(start=day, end=day, now=now)
    return DailyReport(
        day=day,
        figures=figures,
        jackpot_opening=opening,
        jackpot_closing=opening + figures.jackpot_drops - figures.jackpot_payouts,
        cash=cash,
        drop_counts=drop_counts_of(start=day, end=day),
        tournaments=tournaments,
        shifts=shifts_of_day(day=day),
        jackpot_claims=jackpot_claims_of(start=day, end=day),
        aml=aml_list(start=day, end=day, now=now),
        unattributed=_unattributed(figures, cash, tournaments),
        tickets=ticket_report(start=day, end=day, now=now),
    )


@dataclass
class Comparison:
    """One figure of the range against the same-length period before it."""

    label: str
    current: int
    previous: int

    @property
    def change(self) -> int:
        return self.current - self.previous

    @property
    def change_bp(self) -> int | None:
        """The change in basis points of the previous figure (None when that was zero)."""
        if not self.previous:
            return None
        size = abs(self.change) * 10_000 // abs(self.previous)  # rounded towards zero
        return size if self.change >= 0 else -size


COMPARED = [
    ("rake", _("Rake")),
    ("fees", _("Tournament fees")),
    ("overlay", _("Overlay")),
    ("cash_variance", _("Cash over/short")),
    ("house_result", _("House result")),
    ("jackpot_drops", _("Jackpot drops")),
    ("jackpot_payouts", _("Jackpot payouts")),
]


@dataclass
class RangeReport:
    start: date
    end: date
    group: str
    periods: list[PeriodFigures]
    total: PeriodFigures
    previous: PeriodFigures
    comparison: list[Comparison]
    jackpot_days: list[JackpotDay]
    jackpot_claims: list[JackpotClaim]
    cash: CashReport
    tournaments: TournamentReport
    unattributed: Unattributed
    tournament_entries: list[tuple[str, int]] = field(default_factory=list)
    jackpot_periods: list[JackpotDay] = field(default_factory=list)
    tickets: TicketReport = field(default_factory=TicketReport)

    @property
    def jackpot_closing(self) -> list[tuple[date, int]]:
        return [(line.day, line.closing) for line in self.jackpot_days]


def previous_period(start: date, end: date) -> tuple[date, date]:
    length = (end - start).days + 1
    return start - timedelta(days=length), start - timedelta(days=1)


def range_report(*, start: date, end: date, group: str = "day", now: datetime | None = None) -> RangeReport:
    """Figures per day, week or month, the whole range against the same-length period before,
    cash games per table and per game and stakes, tournaments' profit and loss, and the jackpot
    fund day by day."""
    now = now or timezone.now()
    previous_start, previous_end = previous_period(start, end)
    days = kind_flows_by_day(start=previous_start, end=end, now=now)
    by_day = tournament_totals_by_day(start=previous_start, end=end, now=now)
    total = figures_for("total", start, end, days, by_day)
    previous = figures_for("previous", previous_start, previous_end, days, by_day)
    opening = kind_balance_before(kind=AccountKind.JACKPOT_FUND, day=start, now=now)
    cash = cash_report(start=start, end=end, previous=(previous_start, previous_end), now=now)
    tournaments = tournament_report(start=start, end=end, previous=(previous_start, previous_end), now=now)
    periods = periods_of(start, end, group)
    # Entries sold per period (buy-ins and re-entries, for the chart).
    entries = [
        (label, sum(line.entries for day, line in by_day.items() if first <= day <= last))
        for label, first, last in periods
    ]
    jackpot_days = _jackpot_days(start, end, days, opening)
    jackpot_periods = []
    for label, first, last in periods:
        inside = jackpot_days[(first - start).days : (last - start).days + 1]
        jackpot_periods.append(
            JackpotDay(
                first,
                inside[0].opening,
                sum(line.drops for line in inside),
                sum(line.payouts for line in inside),
                inside[-1].closing,
                label=label,
            )
        )
    return RangeReport(
        start=start,
        end=end,
        group=group,
        periods=[figures_for(label, a, b, days, by_day) for label, a, b in periods],
        total=total,
        previous=previous,
        comparison=[
            Comparison(str(label), getattr(total, name), getattr(previous, name)) for name, label in COMPARED
        ],
        jackpot_days=jackpot_days,
        jackpot_periods=jackpot_periods,
        jackpot_claims=jackpot_claims_of(start=start, end=end),
        cash=cash,
        tournaments=tournaments,
        unattributed=_unattributed(total, cash, tournaments),
        tournament_entries=entries,
        tickets=ticket_report(start=start, end=end, now=now),
    )


def report_period_default(now: datetime) -> tuple[date, date]:
    today = gaming_day_of(now)
    return today - timedelta(days=29), today
