"""The CSV tables of the tournament side of the reports: each tournament's entries, pools and
payouts, each series', and the tournament tickets (SER-1)."""

from reports.exports._common import Table, local, money


def tournaments(report) -> Table:
    header = [
        "tournament",
        "name",
        "start",
        "status",
        "guarantee_mode",
        "guarantee",
        "guarantee_outcome",
        "players",
        "buy_ins",
        "re_entries",
        "rebuys",
        "add_ons",
        "prize_contributions",
        "overlay",
        "prize_pool",
        "fees",
        "bounties",
        "bounties_paid",
        "prizes_paid",
        "refunds",
        "net",
    ]
    rows = []
    for line in [*report.lines, report.total]:
        t = line.tournament
        rows.append(
            [
                t.pk if t else "total",
                t.name if t else "",
                local(t.start_at) if t else "",
                t.status if t else "",
                t.guarantee_mode if t else "",
                money(line.guarantee_cents),
                t.outcome if t else "",
                line.players,
                line.buy_ins,
                line.re_entries,
                line.rebuys,
                line.add_ons,
                money(line.contributions_cents),
                money(line.overlay_cents),
                money(line.prize_pool_cents),
                money(line.fees_cents),
                money(line.bounties_cents),
                money(line.bounties_paid_cents),
                money(line.prizes_paid_cents),
                money(line.refunds_cents),
                money(line.net_cents),
            ]
        )
    return header, rows


def tournament_series(report) -> Table:
    header = [
        "series",
        "tournaments",
        "with_overlay",
        "buy_ins",
        "re_entries",
        "prize_contributions",
        "overlay",
        "prize_pool",
        "prizes_paid",
        "refunds",
        "fees",
        "net",
    ]
    return header, [
        [
            line.name,
            line.tournaments,
            line.with_overlay,
            line.buy_ins,
            line.re_entries,
            money(line.contributions_cents),
            money(line.overlay_cents),
            money(line.prize_pool_cents),
            money(line.prizes_paid_cents),
            money(line.refunds_cents),
            money(line.fees_cents),
            money(line.net_cents),
        ]
        for line in report.series
    ]


TICKET_HEADER = [
    "tournament",
    "issued",
    "issued_value",
    "used",
    "used_value",
    "refunded",
    "refunded_value",
    "expired",
    "expired_value",
    "outstanding",
    "outstanding_value",
]


def tickets(report) -> Table:
    """Tournament tickets (SER-1) per target tournament, then the total."""

    def row(name: str, line) -> list:
        return [
            name,
            line.issued,
            money(line.issued_cents),
            line.used,
            money(line.used_cents),
            line.refunded,
            money(line.refunded_cents),
            line.expired,
            money(line.expired_cents),
            line.outstanding,
            money(line.outstanding_cents),
        ]

    return TICKET_HEADER, [*(row(line.tournament, line) for line in report.lines), row("total", report.total)]
