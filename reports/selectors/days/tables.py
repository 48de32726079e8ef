"""A cash table's gaming day from the raw records: the hand log, the ledger's rake and jackpot
entries of the hands' postings, and the minutes open from the audit trail of the floor's openings
and closings (RAK-1..RAK-5, JKP-2)."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Count,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone

from cardroom.models import AuditRecord
from cardroom.selectors import gaming_day_bounds
from cashgame.models import CashTable, Game, Hand, HandStatus
from cashier.models import AccountKind
from reports.models import TableDayTotal

TABLE_OBJECT = "cashgame.cashtable"
TABLE_OPEN = "cashgame.table_open"
TABLE_CLOSE = "cashgame.table_close"


@dataclass
class OpenPeriod:
    """A table open with a game from `opened` to `closed` (None: still open)."""

    table_id: int
    game_id: int
    opened: datetime
    closed: datetime | None

    def seconds_within(self, start: datetime, end: datetime) -> int:
        begin = max(self.opened, start)
        finish = min(self.closed or end, end)
        return max(0, int((finish - begin).total_seconds()))


def table_periods(*, start: datetime, end: datetime) -> list[OpenPeriod]:
    """The periods each table was open that overlap [start, end), read from the audit trail of
    the floor's openings and closings (each carries the table's state after it, with the game).
    A table with no such record at all (created open by an import) counts from its `opened_at`."""
    last_before = (
        AuditRecord.objects.filter(
            object_type=TABLE_OBJECT,
            object_id=Cast(OuterRef("pk"), output_field=CharField()),
            action__in=[TABLE_OPEN, TABLE_CLOSE],
            at__lt=start,
        )
        .order_by("-at", "-id")
        .values("id")[:1]
    )
    tables = list(
        CashTable.objects.annotate(last_event=Subquery(last_before)).values(
            "id", "game_id", "status", "opened_at", "closed_at", "last_event"
        )
    )
    earlier = {
        record.pk: record
        for record in AuditRecord.objects.filter(pk__in=[t["last_event"] for t in tables if t["last_event"]])
    }
    events: dict[int, list[AuditRecord]] = defaultdict(list)
    for record in AuditRecord.objects.filter(
        object_type=TABLE_OBJECT, action__in=[TABLE_OPEN, TABLE_CLOSE], at__gte=start, at__lt=end
    ).order_by("at", "id"):
        if record.object_id.isdigit():
            events[int(record.object_id)].append(record)
    periods: list[OpenPeriod] = []
    for table in tables:
        table_id = table["id"]
        current: OpenPeriod | None = None
        previous = earlier.get(table["last_event"])
        if previous is not None and previous.action == TABLE_OPEN:
            current = OpenPeriod(
                table_id, (previous.after or {}).get("game") or table["game_id"], previous.at, None
            )
        elif previous is None and not events[table_id]:
            # No record of the floor opening it: the table's own times are all there is.
            opened = table["opened_at"]
            if opened is not None and opened < end:
                closed = table["closed_at"] if table["status"] != "open" else None
                if closed is None or closed > start:
                    periods.append(OpenPeriod(table_id, table["game_id"], opened, closed))
            continue
        for record in events[table_id]:
            if record.action == TABLE_OPEN:
                if current is not None:  # opened twice without a close: the first ends here
                    current.closed = record.at
                    periods.append(current)
                current = OpenPeriod(
                    table_id, (record.after or {}).get("game") or table["game_id"], record.at, None
                )
            elif current is not None:
                current.closed = record.at
                periods.append(current)
                current = None
        if current is not None:
            periods.append(current)
    return periods


def table_day_rows(*, day: date, now: datetime | None = None) -> list[TableDayTotal]:
    """Per table, game and stakes: the day's hands (by the time they ended), minutes open, and
    the rake and jackpot drops the ledger holds for those hands' postings (RAK-1..RAK-5)."""
    now = now or timezone.now()
    start, end = gaming_day_bounds(day)
    periods = table_periods(start=start, end=end)
    games_of_table: dict[int, set[int]] = defaultdict(set)
    for period in periods:
        games_of_table[period.table_id].add(period.game_id)
    current_game = dict(CashTable.objects.values_list("id", "game_id"))
    # A table that ran one game all day: its hands are that game's. A table that changed game
    # (closed and reopened) has its hands sorted into the periods by the time they were dealt.
    changed = [p for p in periods if len(games_of_table[p.table_id]) > 1]
    if changed:
        game_expression = Case(
            *[
                When(
                    table_id=p.table_id,
                    started_at__gte=p.opened,
                    **({"started_at__lt": p.closed} if p.closed else {}),
                    then=Value(p.game_id),
                )
                for p in changed
            ],
            default=Value(None),
            output_field=BigIntegerField(),
        )
    else:
        game_expression = Value(None, output_field=BigIntegerField())

    def game_for(table_id: int, period_game: int | None) -> int:
        if period_game is not None:
            return period_game
        games = games_of_table.get(table_id)
        if games and len(games) == 1:
            return next(iter(games))
        return current_game[table_id]

    rows: dict[tuple[int, int, int, int], TableDayTotal] = {}

    def row(table_id: int, game_id: int, small: int, big: int) -> TableDayTotal:
        found = rows.get((table_id, game_id, small, big))
        if found is None:
            found = rows[(table_id, game_id, small, big)] = TableDayTotal(
                day=day, table_id=table_id, game_id=game_id, small_blind_cents=small, big_blind_cents=big
            )
        return found

    ended = Q(status=HandStatus.ENDED)
    for counts in (
        Hand.objects.filter(ended_at__gte=start, ended_at__lt=end)
        .exclude(status=HandStatus.IN_PROGRESS)
        .annotate(period_game=game_expression)
        .values("table_id", "small_blind_cents", "big_blind_cents", "period_game")
        .annotate(
            n=Count("id"),
            raked=Count("id", filter=ended & Q(rake_cents__gt=0)),
            no_flop=Count("id", filter=ended & Q(saw_flop=False)),
            voided=Count("id", filter=Q(status=HandStatus.VOIDED)),
            pots=Sum("pot_cents", filter=ended),
        )
        .order_by()
    ):
        line = row(
            counts["table_id"],
            game_for(counts["table_id"], counts["period_game"]),
            counts["small_blind_cents"],
            counts["big_blind_cents"],
        )
        line.hands += counts["n"]
        line.raked_hands += counts["raked"]
        line.no_flop_hands += counts["no_flop"]
        line.voided_hands += counts["voided"]
        line.pot_cents += counts["pots"] or 0
    # The money: entries of the day on rake revenue and the jackpot fund in the postings of hands
    # (and of reversals of them), whenever those hands were dealt.
    for path in ("posting__entries", "posting__reversed_by__entries"):
        for money in (
            Hand.objects.filter(
                **{
                    f"{path}__created_at__gte": start,
                    f"{path}__created_at__lt": end,
                    f"{path}__account__kind__in": [AccountKind.RAKE_REVENUE, AccountKind.JACKPOT_FUND],
                }
            )
            .annotate(period_game=game_expression)
            .values(
                "table_id", "small_blind_cents", "big_blind_cents", "period_game", f"{path}__account__kind"
            )
            .annotate(total=Sum(f"{path}__amount_cents"))
            .order_by()
        ):
            line = row(
                money["table_id"],
                game_for(money["table_id"], money["period_game"]),
                money["small_blind_cents"],
                money["big_blind_cents"],
            )
            # Both accounts are credit-normal: a credit (negative entry) is money received.
            if money[f"{path}__account__kind"] == AccountKind.RAKE_REVENUE:
                line.rake_cents -= money["total"]
            else:
                line.jackpot_cents -= money["total"]
    # Minutes open per table and game, on the row of that game with the most hands.
    seconds: dict[tuple[int, int], int] = defaultdict(int)
    for period in periods:
        seconds[(period.table_id, period.game_id)] += period.seconds_within(start, min(end, max(now, start)))
    stakes = {
        g.pk: (g.small_blind_cents, g.big_blind_cents)
        for g in Game.objects.only("pk", "small_blind_cents", "big_blind_cents")
    }
    for (table_id, game_id), total in seconds.items():
        if total <= 0:
            continue
        candidates = [r for (t, g, _s, _b), r in rows.items() if t == table_id and g == game_id]
        target = max(candidates, key=lambda r: (r.hands, r.big_blind_cents)) if candidates else None
        if target is None:
            target = row(table_id, game_id, *stakes[game_id])
        target.minutes_open += total // 60
    return sorted(
        rows.values(), key=lambda r: (r.table_id, r.game_id, r.small_blind_cents, r.big_blind_cents)
    )
