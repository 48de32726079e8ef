"""Tournaments over a range of gaming days: profit and loss per tournament with its guarantee
and overlay (TRN-2, TRN-3 to TRN-6, TRN-10), from the tournament-day rollups (and the raw
ledger for days not rolled up yet)."""

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, Q, Sum

from reports.models import TournamentDayTotal
from reports.selectors.common import live_days
from reports.selectors.days import tournament_day_rows
from tournaments.models import GuaranteeMode, GuaranteeOutcome, Tournament, TournamentStatus

SUMMED = [
    "buy_ins",
    "re_entries",
    "rebuys",
    "add_ons",
    "contributions_cents",
    "fees_cents",
    "bounties_cents",
    "bounties_paid_cents",
    "overlay_cents",
    "prizes_paid_cents",
    "refunds_cents",
]


@dataclass(frozen=True)
class TournamentInfo:
    """What the reports show of a tournament (read as values: a year holds about a thousand)."""

    pk: int
    name: str
    start_at: datetime
    status: str
    guarantee_mode: str
    outcome: str

    def get_status_display(self) -> str:
        return (
            str(TournamentStatus(self.status).label)
            if self.status in TournamentStatus.values
            else self.status
        )

    def get_guarantee_mode_display(self) -> str:
        return (
            str(GuaranteeMode(self.guarantee_mode).label)
            if self.guarantee_mode in GuaranteeMode.values
            else ""
        )


@dataclass
class TournamentLine:
    """One tournament's money in the period (cents); `tournament` is None on the total line."""

    tournament: TournamentInfo | None = None
    buy_ins: int = 0
    re_entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    contributions_cents: int = 0
    fees_cents: int = 0
    bounties_cents: int = 0
    bounties_paid_cents: int = 0
    overlay_cents: int = 0
    prizes_paid_cents: int = 0
    refunds_cents: int = 0
    guarantee_cents: int = 0

    def add(self, values: dict) -> None:
        for name in SUMMED:
            value = values[name]
            if value:
                setattr(self, name, getattr(self, name) + value)

    def add_line(self, other: "TournamentLine") -> None:
        for name in SUMMED:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def players(self) -> int:
        """Each player's first entry is his buy-in; later ones are re-entries (TRN-6)."""
        return self.buy_ins

    @property
    def entries(self) -> int:
        return self.buy_ins + self.re_entries

    @property
    def prize_pool_cents(self) -> int:
        """What the players put in plus the house's overlay (TRN-5)."""
        return self.contributions_cents + self.overlay_cents

    @property
    def net_cents(self) -> int:
        """The house's result: fees less the overlay it paid (TRN-5, TRN-6)."""
        return self.fees_cents - self.overlay_cents

    @property
    def guarantee_text(self) -> str:
        t = self.tournament
        if t is None or t.guarantee_mode == GuaranteeMode.NONE:
            return ""
        return t.get_guarantee_mode_display()

    @property
    def guarantee_outcome(self) -> str:
        t = self.tournament
        if t is None or not t.outcome:
            return ""
        return str(GuaranteeOutcome(t.outcome).label) if t.outcome in GuaranteeOutcome.values else t.outcome


@dataclass
class SeriesLine(TournamentLine):
    """The tournaments of one name (a weekly or daily series) added up."""

    name: str = ""
    tournaments: int = 0
    with_overlay: int = 0


class TournamentReport:
    """The tournaments of a period: the total, the series (tournaments of one name), those with an
    overlay, and each tournament's line. For a long period (more than `listed` tournaments) the
    page shows the series and the overlays, computed in SQL; the lines of a thousand tournaments
    are only read when asked for (the CSV export)."""

    def __init__(self, *, total, series, overlaid, count, previous=None, lines=None, loader=None):
        self.total: TournamentLine = total
        self.series: list[SeriesLine] = series
        self.overlaid: list[TournamentLine] = overlaid
        self.count: int = count
        self.previous: TournamentLine | None = previous
        self._lines = lines
        self._loader = loader

    @property
    def lines(self) -> list[TournamentLine]:
        if self._lines is None:
            self._lines = self._loader()
        return self._lines

    def __eq__(self, other) -> bool:
        return isinstance(other, TournamentReport) and (
            self.total,
            self.series,
            self.overlaid,
            self.count,
            self.previous,
            self.lines,
        ) == (other.total, other.series, other.overlaid, other.count, other.previous, other.lines)

    __hash__ = None


def _live_rows(live: list[date]) -> dict[int, dict]:
    sums: dict[int, dict] = {}
    for day in live:
        for line in tournament_day_rows(day=day):
            row = sums.setdefault(
                line.tournament_id, {"tournament_id": line.tournament_id, **dict.fromkeys(SUMMED, 0)}
            )
            for name in SUMMED:
                row[name] += getattr(line, name)
    return sums


def _info(t: dict) -> TournamentInfo:
    return TournamentInfo(
        t["pk"],
        t["name"],
        t["start_at"],
        t["status"],
        t["guarantee_mode"],
        t["rules__guarantee_outcome"] or "",
    )


INFO_FIELDS = (
    "pk",
    "name",
    "start_at",
    "status",
    "guarantee_mode",
    "guarantee_cents",
    "rules__guarantee_outcome",
)


SUMS = {f"sum_{name}": Sum(name) for name in SUMMED}


def _unprefixed(row: dict) -> dict:
    return {name: row[f"sum_{name}"] for name in SUMMED}


def _lines(rolled, live_rows: dict[int, dict], *, overlay_only: bool = False) -> list[TournamentLine]:
    """Per tournament: the rolled-up sums plus the live days', by start time; with overlay_only,
    only the tournaments whose overlay moved in the period (chosen in SQL)."""
    grouped = rolled.values("tournament_id").annotate(**SUMS).order_by()
    if overlay_only:
        grouped = grouped.exclude(sum_overlay_cents=0)
    sums = {row["tournament_id"]: _unprefixed(row) for row in grouped}
    for tournament_id, row in live_rows.items():
        if tournament_id in sums:
            for name in SUMMED:
                sums[tournament_id][name] = (sums[tournament_id][name] or 0) + row[name]
        elif not overlay_only or row["overlay_cents"]:
            sums[tournament_id] = dict(row)
    if overlay_only:
        wanted = [tournament_id for tournament_id, row in sums.items() if row["overlay_cents"]]
        named = Tournament.objects.filter(pk__in=wanted)
    else:
        named = Tournament.objects.filter(
            Q(pk__in=rolled.values("tournament_id")) | Q(pk__in=list(live_rows))
        )
    lines = []
    for t in named.values(*INFO_FIELDS):
        row = sums.get(t["pk"])
        if row is None or (overlay_only and not row["overlay_cents"]):
            continue
        line = TournamentLine(tournament=_info(t), guarantee_cents=t["guarantee_cents"])
        line.add(row)
        lines.append(line)
    lines.sort(key=lambda line: (line.tournament.start_at, line.tournament.pk))
    return lines


def _total(rolled, live_rows: dict[int, dict]) -> TournamentLine:
    total = TournamentLine()
    total.add(_unprefixed(rolled.aggregate(**SUMS)))
    for row in live_rows.values():
        total.add(row)
    return total


def tournament_report(
    *,
    start: date,
    end: date,
    previous: tuple[date, date] | None = None,
    now: datetime | None = None,
    listed: int = 100,
) -> TournamentReport:
    """Every tournament with money in the period, by start time, the series and the totals; the
    previous period's total when given."""
    live = live_days(start=start, end=end, now=now)
    rolled = TournamentDayTotal.objects.filter(day__gte=start, day__lte=end).exclude(day__in=live)
    live_rows = _live_rows(live)
    ids = set(rolled.values_list("tournament_id", flat=True).distinct()) if len(live_rows) else None
    count = (
        len(ids | set(live_rows)) if ids is not None else rolled.values("tournament_id").distinct().count()
    )
    if count <= listed:
        lines = _lines(rolled, live_rows)
        total = TournamentLine()
        series: dict[str, SeriesLine] = {}
        for line in lines:
            total.add_line(line)
            total.guarantee_cents += line.guarantee_cents
            group = series.get(line.tournament.name)
            if group is None:
                group = series[line.tournament.name] = SeriesLine(name=line.tournament.name)
            group.add_line(line)
            group.guarantee_cents += line.guarantee_cents
            group.tournaments += 1
            group.with_overlay += 1 if line.overlay_cents else 0
        report = TournamentReport(
            total=total,
            series=sorted(series.values(), key=lambda group: (-group.net_cents, group.name)),
            overlaid=[line for line in lines if line.overlay_cents],
            count=count,
            lines=lines,
        )
    else:
        series = {}
        for row in (
            rolled.values("tournament__name")
            .annotate(
                **SUMS,
                n=Count("tournament", distinct=True),
                overlaid=Count("tournament", distinct=True, filter=Q(overlay_cents__gt=0)),
            )
            .order_by()
        ):
            group = series[row["tournament__name"]] = SeriesLine(name=row["tournament__name"])
            group.add(_unprefixed(row))
            group.tournaments, group.with_overlay = row["n"], row["overlaid"]
        if live_rows:
            names = dict(Tournament.objects.filter(pk__in=list(live_rows)).values_list("pk", "name"))
            for tournament_id, row in live_rows.items():
                group = series.setdefault(names[tournament_id], SeriesLine(name=names[tournament_id]))
                group.add(row)
                if tournament_id not in ids:  # only today's: counted here (else by the rollups)
                    group.tournaments += 1
                    group.with_overlay += 1 if row["overlay_cents"] else 0
        total = _total(rolled, live_rows)
        total.guarantee_cents = (
            Tournament.objects.filter(
                Q(pk__in=rolled.values("tournament_id")) | Q(pk__in=list(live_rows))
            ).aggregate(g=Sum("guarantee_cents"))["g"]
            or 0
        )
        report = TournamentReport(
            total=total,
            series=sorted(series.values(), key=lambda group: (-group.net_cents, group.name)),
            overlaid=_lines(rolled, live_rows, overlay_only=True),
            count=count,
            loader=lambda: _lines(rolled, live_rows),
        )
    if previous is not None:
        before = live_days(start=previous[0], end=previous[1], now=now)
        report.previous = _total(
            TournamentDayTotal.objects.filter(day__gte=previous[0], day__lte=previous[1]).exclude(
                day__in=before
            ),
            _live_rows(before),
        )
    return report


def tournament_totals_by_day(
    *, start: date, end: date, now: datetime | None = None
) -> dict[date, TournamentLine]:
    """Per gaming day of start..end, every tournament's money added up: the same rows, so the
    same figures, as tournament_report's total for that day. The prize figures of every report
    come from here (prizes paid are prize payouts only; refunds are a line of their own)."""
    live = live_days(start=start, end=end, now=now)
    totals: dict[date, TournamentLine] = {}
    for row in (
        TournamentDayTotal.objects.filter(day__gte=start, day__lte=end)
        .exclude(day__in=live)
        .values("day")
        .annotate(**SUMS)
        .order_by()
    ):
        totals.setdefault(row["day"], TournamentLine()).add(_unprefixed(row))
    for day, row in _live_rows_by_day(live).items():
        totals.setdefault(day, TournamentLine()).add(row)
    return totals


def _live_rows_by_day(live: list[date]) -> dict[date, dict]:
    sums: dict[date, dict] = {}
    for day in live:
        for line in tournament_day_rows(day=day):
            row = sums.setdefault(day, dict.fromkeys(SUMMED, 0))
            for name in SUMMED:
                row[name] += getattr(line, name)
    return sums
