"""What one gaming day holds, computed from the raw records: per cash table, game and stakes
(tables.py: the hand log, the ledger's rake and drops, the audit trail of table openings and
closings), per tournament (tournaments.py: the ledger's postings that name it) and per player
(players.py: cashier transactions and player sessions).

The rollup builder stores these rows for ended gaming days (the ledger sums its accounts itself:
cashier.selectors.account_day_rows); the reports call the same functions for the days not rolled
up yet (normally only today), so a rolled-up day and a live day give the same figures. Every
query is bounded by the day's [start, end) on an indexed time column.
"""

from reports.selectors.days.players import player_day_rows
from reports.selectors.days.tables import OpenPeriod, table_day_rows, table_periods
from reports.selectors.days.tournaments import tournament_day_rows, tournament_of

__all__ = [
    "OpenPeriod",
    "player_day_rows",
    "table_day_rows",
    "table_periods",
    "tournament_day_rows",
    "tournament_of",
]
