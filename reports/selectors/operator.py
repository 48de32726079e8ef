"""The operator's consolidated report (VEN-1): each venue's figures computed by the venue's own
report, on its own rows and with its own gaming day (venue_activate), side by side, and the
operator's total their exact sum. The jackpot funds stay per venue: each venue owes its own fund
to its own players, so they are never added into one.

Only the venues where the user holds the manager's role take part; asking for another venue is
refused (PermissionDenied, VEN-1) before anything is read."""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import PermissionDenied
from cardroom.models import Venue
from cardroom.roles import Role, user_venue_roles
from cardroom.venues import venue_activate, venue_by_pk, venue_by_slug
from reports.selectors.cash import CashReport
from reports.selectors.ledger import PeriodFigures
from reports.selectors.players import AmlLine, aml_list
from reports.selectors.reports import daily_report, range_report

# The figures that add up across venues (cents, except the count of AML lines).
SUMMED = (
    "rake",
    "fees",
    "overlay",
    "cash_variance",
    "drop_variance",
    "prize_contributions",
    "prizes_paid",
    "refunds",
    "aml_count",
)


@dataclass
class JackpotFund:
    """One venue's jackpot fund over the period (cents)."""

    opening: int
    drops: int
    payouts: int
    closing: int


@dataclass
class VenueFigures:
    """One venue's figures of the period, or the operator's total (`venue` None, no jackpot)."""

    venue: Venue | None
    rake: int = 0
    fees: int = 0
    overlay: int = 0
    cash_variance: int = 0  # the cage's over (+) or short (-)
    drop_variance: int = 0  # the drop boxes' counted less the hand log's rake
    prize_contributions: int = 0
    prizes_paid: int = 0
    refunds: int = 0
    aml_count: int = 0
    jackpot: JackpotFund | None = None
    aml: list[AmlLine] = field(default_factory=list)

    @property
    def house_result(self) -> int:
        return self.rake + self.fees - self.overlay + self.cash_variance


@dataclass
class OperatorReport:
    start: date
    end: date
    venues: list[VenueFigures]
    total: VenueFigures


def managed_venues(user) -> list[Venue]:
    """The venues where the user holds the manager's role, in the order they were created."""
    held = user_venue_roles(user)
    venues = [venue_by_pk(pk) for pk in sorted(held) if Role.MANAGER in held[pk]]
    return [venue for venue in venues if venue is not None]


def operator_venues(*, user, slugs: list[str] | tuple[str, ...] = ()) -> list[Venue]:
    """The venues a consolidated report covers: those asked for by address name (all the user
    manages when none is asked for). Refused unless the user manages every venue asked for, and
    at least two venues in all (one venue's report is the venue's own)."""
    managed = managed_venues(user)
    if len(managed) < 2:
        raise PermissionDenied(
            "not_operator_manager",
            _("The consolidated report is for managers of more than one venue."),
            rule="VEN-1",
        )
    if not slugs:
        return managed
    asked = [venue_by_slug(slug) for slug in dict.fromkeys(slugs)]
    if any(venue is None or venue not in managed for venue in asked):
        raise PermissionDenied(
            "venue_not_managed",
            _("You do not hold the manager's role in every venue asked for."),
            rule="VEN-1",
        )
    return sorted(asked, key=lambda venue: venue.pk)


def _venue_figures(venue: Venue, figures: PeriodFigures, cash: CashReport, aml: list[AmlLine], jackpot):
    return VenueFigures(
        venue=venue,
        rake=figures.rake,
        fees=figures.fees,
        overlay=figures.overlay,
        cash_variance=figures.cash_variance,
        drop_variance=cash.total.drop_variance_cents,
        prize_contributions=figures.prize_contributions,
        prizes_paid=figures.prizes_paid,
        refunds=figures.refunds,
        aml_count=len(aml),
        aml=aml,
        jackpot=jackpot,
    )


def operator_total(lines: list[VenueFigures]) -> VenueFigures:
    """The operator's figures: each one the exact sum of the venues' (the jackpot funds none)."""
    return VenueFigures(
        venue=None,
        **{name: sum(getattr(line, name) for line in lines) for name in SUMMED},
        aml=[line for venue in lines for line in venue.aml],
    )


def operator_daily_report(*, day: date, venues: list[Venue], now: datetime | None = None) -> OperatorReport:
    """Each venue's daily report of its gaming day `day` (its own day boundary), and the sum."""
    now = now or timezone.now()
    lines = []
    for venue in venues:
        with venue_activate(venue):
            report = daily_report(day=day, now=now)
        jackpot = JackpotFund(
            report.jackpot_opening,
            report.figures.jackpot_drops,
            report.figures.jackpot_payouts,
            report.jackpot_closing,
        )
        lines.append(_venue_figures(venue, report.figures, report.cash, report.aml, jackpot))
    return OperatorReport(start=day, end=day, venues=lines, total=operator_total(lines))


def operator_range_report(
    *, start: date, end: date, venues: list[Venue], now: datetime | None = None
) -> OperatorReport:
    """Each venue's figures of the gaming days start..end (its range report), and the sum."""
    now = now or timezone.now()
    lines = []
    for venue in venues:
        with venue_activate(venue):
            report = range_report(start=start, end=end, now=now)
            aml = aml_list(start=start, end=end, now=now)
        days = report.jackpot_days
        jackpot = JackpotFund(
            days[0].opening, report.total.jackpot_drops, report.total.jackpot_payouts, days[-1].closing
        )
        lines.append(_venue_figures(venue, report.total, report.cash, aml, jackpot))
    return OperatorReport(start=start, end=end, venues=lines, total=operator_total(lines))
