"""Read-only figures for managers, every one recomputable from the ledger (see each module)."""

from reports.selectors.cash import CashLine, CashReport, cash_report, drop_counts_of
from reports.selectors.common import first_day, live_days
from reports.selectors.ledger import (
    REPORT_KINDS,
    Flow,
    PeriodFigures,
    figures_for,
    kind_balance_before,
    kind_flows_by_day,
    periods_of,
)
from reports.selectors.players import ORDERS, AmlLine, PlayerActivity, PlayerLine, aml_list, player_activity
from reports.selectors.reports import (
    DailyReport,
    JackpotDay,
    RangeReport,
    ShiftLine,
    daily_report,
    jackpot_claims_of,
    previous_period,
    range_report,
    report_period_default,
    shifts_of_day,
)
from reports.selectors.tournaments import TournamentLine, TournamentReport, tournament_report

__all__ = [
    "ORDERS",
    "REPORT_KINDS",
    "AmlLine",
    "CashLine",
    "CashReport",
    "DailyReport",
    "Flow",
    "JackpotDay",
    "PeriodFigures",
    "PlayerActivity",
    "PlayerLine",
    "RangeReport",
    "ShiftLine",
    "TournamentLine",
    "TournamentReport",
    "aml_list",
    "cash_report",
    "daily_report",
    "drop_counts_of",
    "figures_for",
    "first_day",
    "jackpot_claims_of",
    "kind_balance_before",
    "kind_flows_by_day",
    "live_days",
    "periods_of",
    "player_activity",
    "previous_period",
    "range_report",
    "report_period_default",
    "shifts_of_day",
    "tournament_report",
]
