"""Manager report pages (ROL-1): one gaming day, a date range with the previous period, player
activity and the AML list, each of the venue the manager works in; and the operator's
consolidated day and range for a manager of several venues (VEN-1). Every table has a CSV and an
XLSX export (views/exporting.py), each one audited, each row naming its venue; the daily report
and a shift's close are also PDF files (views/pdf.py)."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, RoleRequiredMixin
from cardroom.selectors import gaming_day_of
from reports import exports, selectors
from reports.charts import bar_chart, line_chart
from reports.exports import operator as operator_exports
from reports.forms import DayForm, GroupedRangeForm, PlayerActivityForm, RangeForm
from reports.selectors.operator import (
    managed_venues,
    operator_daily_report,
    operator_range_report,
    operator_venues,
)
from reports.views.exporting import SpreadsheetExportMixin

TOURNAMENTS_LISTED = 100  # more in the range: per series on the page (each one in the CSV)
AML_LISTED = 500  # more: the first ones on the page, all of them in the CSV


class ReportView(RoleRequiredMixin, SpreadsheetExportMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    form_class = None

    def initial(self) -> dict:
        start, end = selectors.report_period_default(timezone.now())
        return {"start": start, "end": end, "group": "day", "order": "name"}

    def get_context_data(self, **kwargs):
        # What the address leaves out is the page's default (the current period), so the CSV
        # link of a page opened without dates (`?export=summary`) is that period's file.
        form = self.form_class({**self.initial(), **self.request.GET.dict()})
        # The consolidated report is offered only to who may open it (VEN-1): a manager of two
        # venues or more (the roles are read once per request, by the role check).
        context = super().get_context_data(
            form=form, operator_report=len(managed_venues(self.request.user)) > 1, **kwargs
        )
        if form.is_valid():
            context.update(self.report(form.cleaned_data))
        return context

    def report(self, data: dict) -> dict:  # pragma: no cover - every view defines it
        raise NotImplementedError


class DailyReportView(ReportView):
    template_name = "reports/daily.html"
    report_name = "daily"
    form_class = DayForm

    def initial(self) -> dict:
        return {"day": gaming_day_of(timezone.now())}

    def report(self, data: dict) -> dict:
        report = selectors.daily_report(day=data["day"])
        return {
            "report": report,
            "pdf_url": f"{reverse('reports:daily-pdf')}?day={data['day']:%Y-%m-%d}",
            "csv_tables": {
                "summary": lambda: (exports.FIGURE_HEADER, [exports.figure_row(report.figures)]),
                "tables": lambda: exports.cash_tables(report.cash),
                "stakes": lambda: exports.cash_stakes(report.cash),
                "drop": lambda: exports.drop_counts(report.drop_counts),
                "tournaments": lambda: exports.tournaments(report.tournaments),
                "shifts": lambda: exports.shifts(report.shifts),
                "jackpot": lambda: exports.jackpot_days(
                    [
                        selectors.JackpotDay(
                            report.day,
                            report.jackpot_opening,
                            report.figures.jackpot_drops,
                            report.figures.jackpot_payouts,
                            report.jackpot_closing,
                        )
                    ]
                ),
                "claims": lambda: exports.jackpot_claims(report.jackpot_claims),
                "aml": lambda: exports.aml(report.aml),
                "tickets": lambda: exports.tickets(report.tickets),
            },
        }


class RangeReportView(ReportView):
    template_name = "reports/range.html"
    report_name = "range"
    form_class = GroupedRangeForm

    def report(self, data: dict) -> dict:
        report = selectors.range_report(start=data["start"], end=data["end"], group=data["group"])
        per = dict(GroupedRangeForm.base_fields["group"].choices)[data["group"]]
        charts = [
            bar_chart(title=_("Rake per %s") % per, points=[(p.label, p.rake) for p in report.periods]),
            bar_chart(
                title=_("House result per %s") % per,
                points=[(p.label, p.house_result) for p in report.periods],
            ),
            bar_chart(
                title=_("Rake by game and stakes"),
                points=[(line.label, line.rake_cents) for line in report.cash.stakes],
            ),
            bar_chart(
                title=_("Tournament entries per %s") % per, points=report.tournament_entries, money=False
            ),
        ]
        if report.tournaments.count <= 60:
            charts[3] = bar_chart(
                title=_("Entries per tournament"),
                points=[(line.tournament.name, line.entries) for line in report.tournaments.lines],
                money=False,
            )
        return {
            "report": report,
            "charts": charts,
            # A long range shows the tournaments per series, and one by one only those with an overlay.
            "per_series": report.tournaments.count > TOURNAMENTS_LISTED,
            "jackpot_chart": line_chart(
                title=_("Jackpot fund at the end of each day"),
                points=[(line.day.isoformat(), line.closing) for line in report.jackpot_days],
            ),
            "csv_tables": {
                "periods": lambda: (
                    exports.FIGURE_HEADER,
                    [exports.figure_row(p) for p in [*report.periods, report.total, report.previous]],
                ),
                "comparison": lambda: exports.comparison(report.comparison),
                "stakes": lambda: exports.cash_stakes(report.cash),
                "tables": lambda: exports.cash_tables(report.cash),
                "tournaments": lambda: exports.tournaments(report.tournaments),
                "series": lambda: exports.tournament_series(report.tournaments),
                "jackpot": lambda: exports.jackpot_days(report.jackpot_days),
                "claims": lambda: exports.jackpot_claims(report.jackpot_claims),
                "tickets": lambda: exports.tickets(report.tickets),
            },
        }


class PlayerActivityView(ReportView):
    template_name = "reports/players.html"
    report_name = "players"
    form_class = PlayerActivityForm

    def report(self, data: dict) -> dict:
        activity = selectors.player_activity(
            start=data["start"],
            end=data["end"],
            query=data["player"],
            activity=data["activity"],
            order=data["order"] or "name",
        )
        return {"activity": activity, "csv_tables": {"players": lambda: exports.players(activity)}}


class AmlReportView(ReportView):
    template_name = "reports/aml.html"
    report_name = "aml"
    form_class = RangeForm

    def report(self, data: dict) -> dict:
        lines = selectors.aml_list(start=data["start"], end=data["end"])
        return {
            "aml": lines[:AML_LISTED],
            "aml_count": len(lines),
            "csv_tables": {"aml": lambda: exports.aml(lines)},
        }


class OperatorReportView(LoginRequiredMixin, SpreadsheetExportMixin, TemplateView):
    """The operator's consolidated report (VEN-1): the figures of every venue the manager manages
    (or of those asked for with `?venue=<address name>`), side by side, and their sum. Open to a
    manager of two venues or more whatever venue he works in; a venue he does not manage is
    refused (403) before anything is read."""

    template_name = "reports/operator.html"
    refused_template_name = "reports/operator_refused.html"
    form_class = DayForm
    report_name = "operator-daily"

    def initial(self) -> dict:
        return {"day": gaming_day_of(timezone.now())}

    def get(self, request, *args, **kwargs):
        try:
            self.venues = operator_venues(user=request.user, slugs=request.GET.getlist("venue"))
        except DomainError as error:
            return render(request, self.refused_template_name, {"error": error}, status=error.status_code)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        query = self.request.GET.dict()
        query.pop("venue", None)
        form = self.form_class({**self.initial(), **query})
        context = super().get_context_data(
            form=form, operator_venues=self.venues, venue_slugs=self.request.GET.getlist("venue"), **kwargs
        )
        if form.is_valid():
            report = self.report(form.cleaned_data)
            context.update(
                report=report,
                csv_tables={
                    "summary": lambda: operator_exports.operator_figures(report),
                    "jackpot": lambda: operator_exports.operator_jackpots(report),
                    "aml": lambda: operator_exports.operator_aml(report),
                },
            )
        return context

    def report(self, data: dict):
        return operator_daily_report(day=data["day"], venues=self.venues)

    def csv_table(self, table: exports.Table) -> exports.Table:
        return table  # each row names its own venue already


class OperatorRangeReportView(OperatorReportView):
    form_class = RangeForm
    report_name = "operator-range"

    def initial(self) -> dict:
        start, end = selectors.report_period_default(timezone.now())
        return {"start": start, "end": end}

    def report(self, data: dict):
        return operator_range_report(start=data["start"], end=data["end"], venues=self.venues)
