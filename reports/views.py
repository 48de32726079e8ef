"""Manager report pages (ROL-1): daily, date range with comparison, players, AML; CSV for each
table, every export audited."""

import csv

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.money import cents_to_decimal
from cardroom.roles import MANAGER_ROLES, RoleRequiredMixin
from cardroom.selectors import gaming_day_of
from cardroom.services import audit_record
from reports import selectors
from reports.charts import bar_chart
from reports.forms import DayForm, RangeForm


class CsvExportMixin:
    """`?export=<table>` answers with that table as CSV instead of the page."""

    def render_to_response(self, context, **kwargs):
        table = self.request.GET.get("export")
        tables = context.get("csv_tables", {})
        if table not in tables:
            return super().render_to_response(context, **kwargs)
        header, rows = tables[table]
        audit_record(
            actor=self.request.user,
            action="report.export",
            object_type="report",
            object_id=f"{self.report_name}:{table}",
            after={"query": self.request.GET.urlencode()},
        )
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{self.report_name}-{table}.csv"'
        writer = csv.writer(response)
        writer.writerow(header)
        writer.writerows(rows)
        return response


def money(cents: int) -> str:
    return str(cents_to_decimal(cents))


FIGURE_HEADER = [
    "period",
    "rake",
    "fees",
    "overlay",
    "house_result",
    "jackpot_drops",
    "jackpot_payouts",
    "cash_variance",
    "prize_contributions",
    "prizes_paid",
]


def figure_row(figures) -> list[str]:
    return [
        figures.label,
        money(figures.rake),
        money(figures.fees),
        money(figures.overlay),
        money(figures.house_result),
        money(figures.jackpot_drops),
        money(figures.jackpot_payouts),
        money(figures.cash_variance),
        money(figures.prize_contributions),
        money(figures.prizes_paid),
    ]


class DailyReportView(RoleRequiredMixin, CsvExportMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "reports/daily.html"
    report_name = "daily"

    def get_context_data(self, **kwargs):
        form = DayForm(self.request.GET or {"day": gaming_day_of(timezone.now())})
        context = super().get_context_data(form=form, **kwargs)
        if not form.is_valid():
            return context
        report = selectors.daily_report(day=form.cleaned_data["day"])
        context["report"] = report
        context["csv_tables"] = {
            "summary": (FIGURE_HEADER, [figure_row(report.figures)]),
            "shifts": (
                [
                    "shift",
                    "cashier",
                    "opened",
                    "closed",
                    "transactions",
                    "float",
                    "expected",
                    "counted",
                    "variance",
                ],
                [
                    [
                        line.shift.pk,
                        line.shift.cashier.get_username(),
                        line.shift.opened_at.isoformat(),
                        line.shift.closed_at.isoformat() if line.shift.closed_at else "",
                        line.transactions,
                        money(line.shift.opening_float_cents),
                        money(line.shift.expected_cents) if line.shift.expected_cents is not None else "",
                        money(line.shift.counted_cents) if line.shift.counted_cents is not None else "",
                        money(line.shift.variance_cents) if line.shift.variance_cents is not None else "",
                    ]
                    for line in report.shifts
                ],
            ),
            "aml": (
                ["day", "card", "player", "cash_total", "transactions", "id_verified"],
                [
                    [
                        row["day"],
                        row["card_number"],
                        row["name"],
                        money(row["total"]),
                        row["transactions"],
                        row["id_verified"],
                    ]
                    for row in report.aml
                ],
            ),
        }
        return context


class RangeReportView(RoleRequiredMixin, CsvExportMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "reports/range.html"
    report_name = "range"

    def get_context_data(self, **kwargs):
        start, end = selectors.report_period_default(timezone.now())
        form = RangeForm(self.request.GET or {"start": start, "end": end, "group": "day"})
        context = super().get_context_data(form=form, **kwargs)
        if not form.is_valid():
            return context
        data = form.cleaned_data
        report = selectors.range_report(start=data["start"], end=data["end"], group=data["group"])
        players = selectors.player_activity(
            start=data["start"], end=data["end"], query=data["player"].strip()
        )
        aml = selectors.aml_list(start=data["start"], end=data["end"])
        context.update(
            report=report,
            players=players,
            aml=aml,
            charts=[
                bar_chart(
                    title=_("Rake per %s") % _(data["group"]),
                    points=[(p.label, p.rake) for p in report.periods],
                ),
                bar_chart(
                    title=_("House result per %s") % _(data["group"]),
                    points=[(p.label, p.house_result) for p in report.periods],
                ),
                bar_chart(
                    title=_("Jackpot fund at the end of each day"),
                    points=[(d.isoformat(), v) for d, v in report.jackpot_closing],
                ),
            ],
            csv_tables={
                "periods": (
                    FIGURE_HEADER,
                    [figure_row(p) for p in [*report.periods, report.total, report.previous]],
                ),
                "players": (
                    [
                        "card",
                        "player",
                        "buy_ins",
                        "cash_outs",
                        "cash_game_net",
                        "tournaments",
                        "tournament_spend",
                        "won",
                    ],
                    [
                        [
                            r["card_number"],
                            r["name"],
                            money(r["buy_ins"]),
                            money(r["cash_outs"]),
                            money(r["cash_game_net"]),
                            r["tournaments"],
                            money(r["tournament_spend"]),
                            money(r["won"]),
                        ]
                        for r in players
                    ],
                ),
                "aml": (
                    ["day", "card", "player", "cash_total", "transactions", "id_verified"],
                    [
                        [
                            r["day"],
                            r["card_number"],
                            r["name"],
                            money(r["total"]),
                            r["transactions"],
                            r["id_verified"],
                        ]
                        for r in aml
                    ],
                ),
                "jackpot": (
                    ["day", "jackpot_fund"],
                    [[d.isoformat(), money(v)] for d, v in report.jackpot_closing],
                ),
            },
        )
        return context
