"""The CSV form of every table on the report pages: a header of stable column names (the same
in every language, for spreadsheets and imports) and the rows, amounts in EUR with two decimals,
times in the venue's zone.

Amounts and counts are handed over as numbers (Decimal, int) and everything else as text, so the
writer (cardroom.spreadsheet) neutralises the text a spreadsheet could read as a formula (a
player named `=HYPERLINK(...)`) and leaves -12.50 a number."""

from decimal import Decimal

from django.utils import timezone

from cardroom.money import cents_to_decimal

Table = tuple[list[str], list[list]]


def money(cents: int | None) -> Decimal | str:
    """-1250 -> Decimal("-12.50"), written -12.50; no amount: an empty cell."""
    return "" if cents is None else cents_to_decimal(cents)


def percent(basis_points: int | None) -> Decimal | str:
    """1250 -> Decimal("12.50") (per cent, two decimals), without floats."""
    return "" if basis_points is None else cents_to_decimal(basis_points)


def local(moment) -> str:
    return timezone.localtime(moment).isoformat(timespec="minutes") if moment else ""


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
    "refunds",
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
        money(figures.refunds),
    ]


CASH_HEADER = [
    "minutes_open",
    "hands",
    "raked_hands",
    "no_flop_hands",
    "voided_hands",
    "pots",
    "rake",
    "jackpot_drops",
    "rake_per_hour",
]


def _cash_values(line) -> list:
    return [
        line.minutes_open,
        line.hands,
        line.raked_hands,
        line.no_flop_hands,
        line.voided_hands,
        money(line.pot_cents),
        money(line.rake_cents),
        money(line.jackpot_cents),
        money(line.rake_per_hour_cents),
    ]


def cash_tables(cash) -> Table:
    header = ["table", "games", *CASH_HEADER, "drop_counts", "drop_counted", "drop_expected", "drop_variance"]
    rows = [
        [
            line.table_number,
            " | ".join(line.games),
            *_cash_values(line),
            line.drop_counts,
            money(line.drop_counted_cents),
            money(line.drop_expected_cents),
            money(line.drop_variance_cents),
        ]
        for line in [*cash.tables, cash.total]
    ]
    rows[-1][0] = "total"
    return header, rows


def cash_stakes(cash) -> Table:
    header = ["game", "game_type", "small_blind", "big_blind", *CASH_HEADER, "previous_rake", "rake_change"]
    rows = [
        [
            line.label,
            " | ".join(line.games),
            money(line.small_blind_cents),
            money(line.big_blind_cents),
            *_cash_values(line),
            money(line.previous_rake_cents),
            money(line.rake_change_cents),
        ]
        for line in [*cash.stakes, cash.total]
    ]
    rows[-1][:4] = ["total", "", "", ""]
    return header, rows


def drop_counts(counts) -> Table:
    return (
        ["table", "from", "until", "hands_raked", "expected", "counted", "variance", "counted_by", "note"],
        [
            [
                c.table.number,
                local(c.period_start),
                local(c.period_end),
                c.hands,
                money(c.expected_cents),
                money(c.counted_cents),
                money(c.variance_cents),
                c.counted_by.get_username(),
                c.note,
            ]
            for c in counts
        ],
    )


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


def shifts(lines) -> Table:
    return (
        [
            "shift",
            "cashier",
            "opened",
            "closed",
            "transactions",
            "float",
            "cash_in",
            "paid_out",
            "expected",
            "counted",
            "variance",
        ],
        [
            [
                line.shift.pk,
                line.shift.cashier.get_username(),
                local(line.shift.opened_at),
                local(line.shift.closed_at),
                line.transactions,
                money(line.shift.opening_float_cents),
                money(line.cash_in),
                money(line.cash_out),
                money(line.shift.expected_cents),
                money(line.shift.counted_cents),
                money(line.shift.variance_cents),
            ]
            for line in lines
        ],
    )


def jackpot_days(lines) -> Table:
    return (
        ["day", "opening", "drops", "payouts", "closing"],
        [
            [
                line.day.isoformat(),
                money(line.opening),
                money(line.drops),
                money(line.payouts),
                money(line.closing),
            ]
            for line in lines
        ],
    )


def jackpot_claims(claims) -> Table:
    return (
        ["time", "table", "hand", "jackpot", "losing_hand", "winning_hand", "shares", "paid"],
        [
            [
                local(c.created_at),
                c.hand.table.number,
                c.hand.number,
                money(c.fund_cents),
                c.loser_hand,
                c.winner_hand,
                c.share_count,
                money(c.paid_cents or 0),
            ]
            for c in claims
        ],
    )


def aml(lines) -> Table:
    return (
        ["day", "card", "player", "cash_total", "transactions", "id_verified", "id_document"],
        [
            [
                line.day.isoformat(),
                line.card_number,
                line.name,
                money(line.total_cents),
                line.transactions,
                line.id_verified,
                line.id_document,
            ]
            for line in lines
        ],
    )


def comparison(lines) -> Table:
    return (
        ["figure", "current", "previous", "change", "change_percent"],
        [
            [
                line.label,
                money(line.current),
                money(line.previous),
                money(line.change),
                percent(line.change_bp),
            ]
            for line in lines
        ],
    )


def players(activity) -> Table:
    return (
        [
            "card",
            "player",
            "id_verified",
            "days",
            "sessions",
            "minutes_played",
            "cash_game_buy_ins",
            "cash_game_cash_outs",
            "cash_game_net",
            "tournament_entries",
            "tournament_spend",
            "won",
            "refunds",
        ],
        [
            [
                line.card_number,
                line.name,
                line.id_verified,
                line.days,
                line.sessions,
                line.minutes_played,
                money(line.cash_game_in_cents),
                money(line.cash_game_out_cents),
                money(line.cash_game_net_cents),
                line.tournament_entries,
                money(line.tournament_in_cents),
                money(line.won_cents),
                money(line.refunds_cents),
            ]
            for line in activity.lines
        ],
    )


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


def with_venue(venue_name: str, table: Table) -> Table:
    """The table with the venue's name in a first column, on every row (VEN-1)."""
    header, rows = table
    return ["venue", *header], [[venue_name, *row] for row in rows]
