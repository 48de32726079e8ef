"""Cash games over a range of gaming days: per table, and per game and stakes (RAK-1..RAK-5).

Ended days come from the table-day rollups, summed in SQL at the finest grain (table, game,
stakes); days not rolled up yet are computed from the hand log with the same function the
rollup builder uses. The drop-box counts (RAK-5) are few (one per table and count) and are read
as recorded, by the end of their period.
"""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import Count, Sum

from cardroom.money import format_eur
from cashgame.models import CashTable, DropBoxCount, Game
from reports.models import TableDayTotal
from reports.selectors.common import live_days, range_bounds
from reports.selectors.days import table_day_rows

SUMMED = [
    "minutes_open",
    "hands",
    "raked_hands",
    "no_flop_hands",
    "voided_hands",
    "pot_cents",
    "rake_cents",
    "jackpot_cents",
]


@dataclass
class CashLine:
    """Figures of one table, or one game at one stakes, over a period (cents, minutes)."""

    label: str
    games: list[str] = field(default_factory=list)
    table_number: int | None = None
    small_blind_cents: int | None = None
    big_blind_cents: int | None = None
    minutes_open: int = 0
    hands: int = 0
    raked_hands: int = 0
    no_flop_hands: int = 0
    voided_hands: int = 0
    pot_cents: int = 0
    rake_cents: int = 0
    jackpot_cents: int = 0
    drop_counts: int = 0
    drop_counted_cents: int = 0
    drop_expected_cents: int = 0
    drop_variance_cents: int = 0
    previous_rake_cents: int | None = None

    def add(self, values: dict) -> None:
        for name in SUMMED:
            setattr(self, name, getattr(self, name) + (values.get(name) or 0))

    @property
    def ended_hands(self) -> int:
        return self.hands - self.voided_hands

    @property
    def hands_per_hour(self) -> int | None:
        return self.hands * 60 // self.minutes_open if self.minutes_open else None

    @property
    def rake_per_hour_cents(self) -> int | None:
        return self.rake_cents * 60 // self.minutes_open if self.minutes_open else None

    @property
    def average_pot_cents(self) -> int | None:
        return self.pot_cents // self.ended_hands if self.ended_hands else None

    @property
    def rake_change_cents(self) -> int | None:
        return None if self.previous_rake_cents is None else self.rake_cents - self.previous_rake_cents


@dataclass
class CashReport:
    tables: list[CashLine]
    stakes: list[CashLine]
    total: CashLine


def _fine_rows(*, start: date, end: date, now: datetime | None) -> list[dict]:
    """Sums per (table, game, stakes) over the range: rollups plus the live days."""
    live = live_days(start=start, end=end, now=now)
    keys = ["table_id", "game_id", "small_blind_cents", "big_blind_cents"]
    rows = list(
        TableDayTotal.objects.filter(day__gte=start, day__lte=end)
        .exclude(day__in=live)
        .values(*keys)
        .annotate(**{name: Sum(name) for name in SUMMED})
        .order_by()
    )
    for day in live:
        for line in table_day_rows(day=day, now=now):
            rows.append({**{k: getattr(line, k) for k in keys}, **{n: getattr(line, n) for n in SUMMED}})
    return rows


def _stakes_label(game: Game, small: int, big: int) -> str:
    """The game's name; with the stakes when its hands were dealt at others (the game was edited)."""
    if (small, big) == (game.small_blind_cents, game.big_blind_cents):
        return game.name
    return f"{game.name} ({format_eur(small, with_currency=False)}/{format_eur(big, with_currency=False)})"


def cash_report(
    *, start: date, end: date, previous: tuple[date, date] | None = None, now: datetime | None = None
) -> CashReport:
    """Per table (with its drop-box counts) and per game and stakes (with the rake of the
    previous period when given), and the total."""
    rows = _fine_rows(start=start, end=end, now=now)
    games = Game.objects.in_bulk({row["game_id"] for row in rows})
    tables = CashTable.objects.in_bulk({row["table_id"] for row in rows})
    by_table: dict[int, CashLine] = {}
    by_stakes: dict[tuple[int, int, int], CashLine] = {}
    total = CashLine(label="total")
    for row in rows:
        game, table = games[row["game_id"]], tables[row["table_id"]]
        stakes_label = _stakes_label(game, row["small_blind_cents"], row["big_blind_cents"])
        line = by_table.get(table.pk)
        if line is None:
            line = by_table[table.pk] = CashLine(label=str(table), table_number=table.number)
        if stakes_label not in line.games:
            line.games.append(stakes_label)
        line.add(row)
        key = (game.pk, row["small_blind_cents"], row["big_blind_cents"])
        line = by_stakes.get(key)
        if line is None:
            line = by_stakes[key] = CashLine(
                label=stakes_label,
                games=[game.get_game_type_display()],
                small_blind_cents=row["small_blind_cents"],
                big_blind_cents=row["big_blind_cents"],
            )
        line.add(row)
        total.add(row)
    begin, finish = range_bounds(start, end)
    for count in (
        DropBoxCount.objects.filter(period_end__gt=begin, period_end__lte=finish)
        .values("table_id", "table__number")
        .annotate(
            n=Count("id"),
            counted=Sum("counted_cents"),
            expected=Sum("expected_cents"),
            variance=Sum("variance_cents"),
        )
        .order_by()
    ):
        line = by_table.get(count["table_id"])
        if line is None:
            line = by_table[count["table_id"]] = CashLine(
                label=str(CashTable.objects.get(pk=count["table_id"])), table_number=count["table__number"]
            )
        line.drop_counts += count["n"]
        line.drop_counted_cents += count["counted"]
        line.drop_expected_cents += count["expected"]
        line.drop_variance_cents += count["variance"]
        total.drop_counts += count["n"]
        total.drop_counted_cents += count["counted"]
        total.drop_expected_cents += count["expected"]
        total.drop_variance_cents += count["variance"]
    if previous is not None:
        before: dict[tuple[int, int, int], int] = {}
        for row in _fine_rows(start=previous[0], end=previous[1], now=now):
            key = (row["game_id"], row["small_blind_cents"], row["big_blind_cents"])
            before[key] = before.get(key, 0) + (row["rake_cents"] or 0)
        for key in before:
            if key not in by_stakes:
                game = games.get(key[0]) or Game.objects.get(pk=key[0])
                by_stakes[key] = CashLine(
                    label=_stakes_label(game, key[1], key[2]),
                    games=[game.get_game_type_display()],
                    small_blind_cents=key[1],
                    big_blind_cents=key[2],
                )
        for key, line in by_stakes.items():
            line.previous_rake_cents = before.get(key, 0)
        total.previous_rake_cents = sum(before.values())
    return CashReport(
        tables=sorted(by_table.values(), key=lambda line: line.table_number or 0),
        stakes=sorted(
            by_stakes.values(),
            key=lambda line: (line.big_blind_cents or 0, line.small_blind_cents or 0, line.label),
        ),
        total=total,
    )


def drop_counts_of(*, start: date, end: date) -> list[DropBoxCount]:
    """Each drop-box count (RAK-5) whose period ended in the gaming days start..end."""
    begin, finish = range_bounds(start, end)
    return list(
        DropBoxCount.objects.filter(period_end__gt=begin, period_end__lte=finish)
        .select_related("table", "counted_by")
        .order_by("table__number", "period_end")
    )
