"""The CSV files of the operator's consolidated report (VEN-1): every row names its venue."""

from reports.exports import Table, aml, money, with_venue

OPERATOR_HEADER = [
    "venue",
    "start",
    "end",
    "rake",
    "fees",
    "overlay",
    "house_result",
    "cash_variance",
    "drop_variance",
    "prize_contributions",
    "prizes_paid",
    "refunds",
    "aml_players",
]


def operator_figures(report) -> Table:
    """Each venue's figures, then the operator's total (its venue cell "total")."""
    rows = []
    for line in [*report.venues, report.total]:
        rows.append(
            [
                line.venue.name if line.venue else "total",
                report.start,
                report.end,
                money(line.rake),
                money(line.fees),
                money(line.overlay),
                money(line.house_result),
                money(line.cash_variance),
                money(line.drop_variance),
                money(line.prize_contributions),
                money(line.prizes_paid),
                money(line.refunds),
                line.aml_count,
            ]
        )
    return OPERATOR_HEADER, rows


def operator_jackpots(report) -> Table:
    """Each venue's jackpot fund: never added up, each venue owes its own."""
    return (
        ["venue", "opening", "drops", "payouts", "closing"],
        [
            [
                line.venue.name,
                money(line.jackpot.opening),
                money(line.jackpot.drops),
                money(line.jackpot.payouts),
                money(line.jackpot.closing),
            ]
            for line in report.venues
        ],
    )


def operator_aml(report) -> Table:
    """Every venue's AML lines, each naming its venue."""
    header, _rows = aml([])
    rows = []
    for line in report.venues:
        rows += with_venue(line.venue.name, aml(line.aml))[1]
    return ["venue", *header], rows
