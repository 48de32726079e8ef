"""The CSV and XLSX form of every table on the report pages: a header of stable column names (the same
in every language, for spreadsheets and imports) and the rows, amounts in EUR with two decimals,
times in the venue's zone.

Amounts and counts are handed over as numbers (Decimal, int) and everything else as text, so the
writer (cardroom.spreadsheet) neutralises the text a spreadsheet could read as a formula (a
player named `=HYPERLINK(...)`) and leaves -12.50 a number.

The tournament side's tables (tournaments, series, tickets) are in tournament_tables.py, the cells
every table shares in _common.py; both are importable from here, as before."""

from reports.exports._common import Table, local, money, percent
from reports.exports.tournament_tables import TICKET_HEADER, tickets, tournament_series, tournaments

__all__ = [
    "CASH_HEADER",
    "FIGURE_HEADER",
    "TICKET_HEADER",
    "Table",
    "aml",
    "cash_stakes",
    "cash_tables",
    "comparison",
    "drop_counts",
    "figure_row",
    "jackpot_claims",
    "jackpot_days",
    "local",
    "money",
    "percent",
    "players",
    "shifts",
    "tickets",
    "tournament_series",
    "tournaments",
    "with_venue",
]


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
                line.day,
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
                line.day,
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


def with_venue(venue_name: str, table: Table) -> Table:
    """The table with the venue's name in a first column, on every row (VEN-1)."""
    header, rows = table
    return ["venue", *header], [[venue_name, *row] for row in rows]
